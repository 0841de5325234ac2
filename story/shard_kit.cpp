// Shared drawing helpers of the data-parallel chapters; see shard_kit.hpp.
#include "story/shard_kit.hpp"

#include <algorithm>
#include <cmath>

#include "story/easing.hpp"
#include "story/layout.hpp"

namespace story {

Box lerp_box(const Box& a, const Box& b, double u) {
    return {lerp(a.x, b.x, u), lerp(a.y, b.y, u), lerp(a.w, b.w, u), lerp(a.h, b.h, u)};
}

std::vector<int> shown_ranks(int n, int max_shown) {
    std::vector<int> out;
    if (n <= max_shown) {
        for (int i = 0; i < n; ++i) out.push_back(i);
        return out;
    }
    for (int i = 0; i < max_shown - 2; ++i) out.push_back(i);
    out.push_back(-1);
    out.push_back(n - 1);
    return out;
}

Box row_box(int count, int i, double left, double right, double top, double h, double max_w,
            double gap) {
    const double w = std::min(max_w, (right - left - gap * (count - 1)) / count);
    const double start = left + (right - left - (w * count + gap * (count - 1))) / 2;
    return {start + i * (w + gap), top, w, h};
}

std::vector<MemorySegment> states_stack(const Palette& p, double weights, double gradients,
                                        double optimizer, double activations) {
    return {{weights, p.weights},
            {gradients, p.gradients},
            {optimizer, p.optimizer},
            {activations, p.activations}};
}

void add_all(Scene& s, std::vector<Item> items, double alpha) {
    if (alpha <= 0) return;
    for (Item& item : items) s.add(std::move(item.shape), item.opacity * std::min(alpha, 1.0));
}

void add_token(Scene& s, const Palette& p, const TextMetrics& m, Point c, double size, Color fill,
               const std::string& label, double alpha) {
    if (alpha <= 0) return;
    const TextStyle style{22, Weight::semibold, true};
    const TextExtent e = m.measure(label, style);
    const bool labelled = !label.empty() && e.advance + 10 <= size * 1.6 && size >= 26;
    const double w = labelled ? std::max(size, e.advance + 12) : size;
    s.add(Rect{c.x - w / 2, c.y - size / 2, w, size, 6, fill, p.background, 2}, alpha);
    if (labelled)
        s.add(Text{c.x, c.y + (e.ascent - e.descent) / 2 - 1, label, style, p.background,
                   Align::center},
              alpha);
}

Point along(Point a, Point b, double u) { return {lerp(a.x, b.x, u), lerp(a.y, b.y, u)}; }

std::vector<Item> without_spill_label(std::vector<Item> items, Color spill) {
    std::erase_if(items, [&](const Item& i) {
        const auto* text = std::get_if<Text>(&i.shape);
        return text && text->color == spill;
    });
    return items;
}

Point box_exit(const Box& b, Point to, double margin) {
    const double dx = to.x - b.cx(), dy = to.y - b.cy();
    const double hw = b.w / 2 + margin, hh = b.h / 2 + margin;
    const double k = std::min(dx != 0 ? hw / std::abs(dx) : 1e9, dy != 0 ? hh / std::abs(dy) : 1e9);
    return {b.cx() + dx * std::min(k, 1.0), b.cy() + dy * std::min(k, 1.0)};
}

double morph_value(const Timeline& timeline, double t, const std::vector<double>& per_state) {
    const Morph m = timeline.morph_at(t);
    return lerp(per_state[m.from], per_state[m.to], m.u);
}

std::string fraction_text(long long num, long long den) {
    return std::to_string(num) + "/" + std::to_string(den);
}

}  // namespace story
