// Drawing shared by the interconnect, layout_3d and summary chapters: compact GPU tiles, node
// frames, links drawn to scale (NVLink thick, the network thin) with chunks moving along them at
// constant speed, and a horizontal memory gauge against a dashed capacity line.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "story/draw/box.hpp"
#include "story/scene/scene.hpp"
#include "story/scene/text_metrics.hpp"
#include "story/scene/theme.hpp"
#include "story/vocab/vocab.hpp"

namespace story {

// A GPU without its memory stack, for pictures of many cards: rounded panel, name at the top,
// or in the middle of a tile shorter than kShortTile (no room below the name for more).
inline constexpr double kShortTile = 90;
struct TileSpec {
    Box box;
    std::string name;  // "GPU 3"
    double label_size = 22;
    std::optional<Color> stroke;  // default: grid
    bool name_left = false;       // a short tile's name at its left (room for a tag at its right)
};
std::vector<Item> gpu_tile(const Palette& p, const TextMetrics& m, const TileSpec& t);

// A node: a rounded frame with its name at the top-left.
std::vector<Item> node_frame(const Palette& p, const Box& b, const std::string& label);

// Link thickness to scale: one direction of bandwidth, the fastest link drawn kMaxLinkWidth.
inline constexpr double kMaxLinkWidth = 18, kMinLinkWidth = 2;
double link_width(double bytes_per_s, double fastest_bytes_per_s);

// Offsets (px from the link's start) of the chunks on a link of `length` at distance
// `travelled` px since the first chunk entered, one chunk every `spacing` px.
std::vector<double> chunk_offsets(double travelled, double length, double spacing);
// A chunk: a small rounded square in the communication colour centred on a point.
Item chunk(const Palette& p, Point at, double size = 16, double opacity = 1);

// Horizontal memory gauge: segments left to right (weights, gradients, optimizer, activations)
// against a dashed capacity line at box.right(); overflow spills past it in its layers' colours,
// hatched (story::add_overflow), at most max_spill px, labelled "over by 32 GB" in the highlight
// colour when there is room (label_size > 0).
// With spill_full > 0 the spill is drawn on a log scale instead, reaching max_spill at an
// overflow of spill_full capacities: rows far over capacity keep their order (1,210 GB spills
// further than 398 GB) instead of all stopping at max_spill.
struct GaugeSpec {
    Box box;
    double capacity = 80e9;
    std::vector<MemorySegment> stack;
    double max_spill = 0;
    double label_size = 0;
    double spill_full = 0;
};
// The spill's length in px for `over` bytes past the capacity line (see GaugeSpec).
double spill_width(const GaugeSpec& g, double over);
std::vector<Item> memory_gauge(const Palette& p, const Locale& l, const GaugeSpec& g);

// The four memory segments of a per-GPU breakdown, in the vocabulary's colours and order.
struct PerGpuBytes {
    double weights = 0, gradients = 0, optimizer = 0, activations = 0;
};
std::vector<MemorySegment> memory_stack(const Palette& p, const PerGpuBytes& b);

}  // namespace story
