// Shared drawing helpers of the data-parallel chapters; see shard_kit.hpp.
#include "story/shard_kit.hpp"

#include <algorithm>
#include <cmath>

#include "story/easing.hpp"
#include "story/layout.hpp"

namespace story {

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

std::vector<MemorySegment> states_stack(const Palette& p, double weights, double gradients,
                                        double optimizer, double activations) {
    return {{weights, p.weights},
            {gradients, p.gradients},
            {optimizer, p.optimizer},
            {activations, p.activations}};
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

std::string fraction_text(long long num, long long den) {
    return std::to_string(num) + "/" + std::to_string(den);
}

}  // namespace story
