// Tiles, nodes, links, chunks and memory gauges for the cluster-scale chapters.
#include "story/vocab/cluster_vocab.hpp"

#include <algorithm>
#include <cmath>

#include "story/scene/layout.hpp"
#include "story/text/format.hpp"
#include "story/time/easing.hpp"

namespace story {

std::vector<Item> gpu_tile(const Palette& p, const TextMetrics& m, const TileSpec& t) {
    std::vector<Item> out;
    const Box& b = t.box;
    out.push_back({Rect{b.x, b.y, b.w, b.h, 12, p.panel, t.stroke.value_or(p.grid), 2}});
    TextStyle name{t.label_size, Weight::medium, false};
    name.size = fit_size(m, t.name, name, b.w - 10);
    const TextExtent e = m.measure(t.name, name);
    // Centred in a short tile (or at its left); at the top-left when the tile has room for more
    // below.
    const double middle = b.cy() + (e.ascent - e.descent) / 2;
    if (b.h < kShortTile && t.name_left)
        out.push_back({Text{b.x + 12, middle, t.name, name, p.muted}});
    else if (b.h < kShortTile)
        out.push_back({Text{b.cx(), middle, t.name, name, p.muted, Align::center}});
    else
        out.push_back({Text{b.x + 12, b.y + 10 + e.ascent, t.name, name, p.muted}});
    return out;
}

std::vector<Item> node_frame(const Palette& p, const Box& b, const std::string& label) {
    const TextStyle style{26, Weight::semibold, false};
    return {{Rect{b.x, b.y, b.w, b.h, 16, std::nullopt, p.grid, 2}},
            {Text{b.x + 18, b.y + 36, label, style, p.muted}}};
}

double link_width(double bytes_per_s, double fastest_bytes_per_s) {
    if (fastest_bytes_per_s <= 0) return kMinLinkWidth;
    return std::max(kMinLinkWidth, kMaxLinkWidth * bytes_per_s / fastest_bytes_per_s);
}

std::vector<double> chunk_offsets(double travelled, double length, double spacing) {
    std::vector<double> out;
    if (travelled <= 0 || spacing <= 0) return out;
    // The k-th chunk entered when the flow had travelled k x spacing.
    for (double lead = std::fmod(travelled, spacing); lead <= std::min(travelled, length);
         lead += spacing)
        out.push_back(lead);
    return out;
}

Item chunk(const Palette& p, Point at, double size, double opacity) {
    return {Rect{at.x - size / 2, at.y - size / 2, size, size, 3, p.comm}, opacity};
}

// The least overflow is still seen: a spill of a few GB on a log scale would be a hairline.
constexpr double kMinSpill = 6;

double spill_width(const GaugeSpec& g, double over) {
    if (over <= 0) return 0;
    if (g.spill_full > 0)
        return std::max(kMinSpill, g.max_spill * std::min(1.0, std::log1p(over / g.capacity) /
                                                                   std::log1p(g.spill_full)));
    return std::min(over * g.box.w / g.capacity, g.max_spill);
}

std::vector<Item> memory_gauge(const Palette& p, const Locale& l, const GaugeSpec& g) {
    std::vector<Item> out;
    const Box& b = g.box;
    out.push_back({Rect{b.x, b.y, b.w, b.h, 4, p.panel, p.grid, 1}});
    const double px_per_byte = b.w / g.capacity;
    double x = b.x, used = 0;
    for (const MemorySegment& seg : g.stack) {
        used += seg.bytes;
        const double w = std::min(seg.bytes * px_per_byte, b.right() - x);
        if (w > 0.01) out.push_back({Rect{x, b.y, w, b.h, 0, seg.color}});
        x += std::max(w, 0.0);
    }
    const double over = used - g.capacity;
    if (over > 0 && g.max_spill > 0) {
        const double w = spill_width(g, over);
        add_overflow(out, p, overflow(g.stack, g.capacity), {b.right(), b.y, w, b.h}, false);
        if (g.label_size > 0) {
            const TextStyle lab{g.label_size, Weight::semibold, true};
            out.push_back({Text{b.right() + w + 10, b.cy() + g.label_size * 0.36, over_by(l, over),
                                lab, p.highlight}});
        }
    }
    out.push_back({Line{{b.right(), b.y - 6}, {b.right(), b.bottom() + 6}, p.text, 2, true}});
    return out;
}

std::vector<MemorySegment> memory_stack(const Palette& p, const PerGpuBytes& b) {
    return {{b.weights, p.weights},
            {b.gradients, p.gradients},
            {b.optimizer, p.optimizer},
            {b.activations, p.activations}};
}

}  // namespace story
