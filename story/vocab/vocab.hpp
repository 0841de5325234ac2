// The shared visual vocabulary (STYLE.md): GPU cards with memory stacks against a dashed
// capacity line, overflow spilling above the card in its layers' colours, hatched, with "over by
// X GB" in the highlight colour, drawn the same way in every chapter.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "engine/presets.hpp"
#include "story/draw/box.hpp"
#include "story/scene/scene.hpp"
#include "story/scene/text_metrics.hpp"
#include "story/scene/theme.hpp"
#include "story/text/locale.hpp"

namespace story {

struct MemorySegment {
    double bytes = 0;
    Color color;
    bool operator==(const MemorySegment&) const = default;
};

struct CardSpec {
    double x = 0, y = 0, w = 200, h = 400;
    std::string name;                  // "GPU 3"
    double capacity = 80e9;            // bytes: the dashed line sits at the top of the stack area
    std::vector<MemorySegment> stack;  // bottom to top
    bool capacity_label = true;        // "80 GB" in the header row, when it fits beside the name
    bool show_overflow = true;         // spill above the card, labelled "over by 32 GB"
    double label_size = 26;
    double max_spill = 0.45;  // tallest overflow drawn, as a fraction of the card height
    // The bytes the overflow's label names, where the stack is drawn mid-morph (a collapsing
    // ghost) and the label must stay the shown state's figure; nullopt: the stack's own.
    std::optional<double> over_label;
};

// Drawn in absolute coordinates, figures in the locale's numbers; returns the items to add.
std::vector<Item> gpu_card(const Palette& p, const TextMetrics& m, const Locale& l,
                           const CardSpec& c);
// Where gpu_card draws the stack: from under the capacity line (its top, c.capacity bytes up)
// to the card's bottom padding. Labels beside a card line up with its segments from this.
Box stack_area(const TextMetrics& m, const CardSpec& c);

// The parts of `stack` above `capacity` bytes, bottom to top, each in its segment's colour: which
// layers overflow.
std::vector<MemorySegment> overflow(const std::vector<MemorySegment>& stack, double capacity);
// An overflow's parts drawn hatched (STYLE.md), each in its colour, in `area` (the spill's box)
// in proportion to their bytes, from its bottom up (`vertical`) or from its left.
void add_overflow(std::vector<Item>& out, const Palette& p, const std::vector<MemorySegment>& parts,
                  const Box& area, bool vertical);
// "over by 32 GB", the overflow's label everywhere, in the highlight colour.
std::string over_by(const Locale& l, double over);

// "h100-sxm-80gb" -> "H100"
std::string gpu_display_name(const engine::GpuSpec& g);

}  // namespace story
