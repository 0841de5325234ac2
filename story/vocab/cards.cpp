// Rows of GPU cards and chunks in flight; see cards.hpp.
#include "story/vocab/cards.hpp"

#include <algorithm>

#include "story/draw/text.hpp"

namespace story {

std::vector<int> shown_ranks(int n, int max_shown) {
    std::vector<int> out;
    if (n <= max_shown) {
        for (int i = 0; i < n; ++i) out.push_back(i);
        return out;
    }
    for (int i = 0; i < max_shown - 2; ++i) out.push_back(i);
    out.push_back(kGapRank);
    out.push_back(n - 1);
    return out;
}

Text gap_mark(const Box& slot, Color color) {
    return {slot.cx(), slot.cy(), "…", style_of(Role::heading), color, Align::center};
}

double card_label_size(double card_w) {
    return style_of(card_w < kNarrowCard ? Role::small : Role::label).size;
}

std::vector<Item> without_spill_label(std::vector<Item> items, Color spill) {
    std::erase_if(items, [&](const Item& i) {
        const auto* text = std::get_if<Text>(&i.shape);
        return text && text->color == spill;
    });
    return items;
}

namespace {
// A token's label: 22 px tabular figures, at most 1.6 sizes wide, 5 px clear of each edge;
// tiles smaller than kLabelledToken carry none.
constexpr double kLabelPad = 5, kLabelledToken = 26, kMaxLabelWidth = 1.6, kRadius = 6;
constexpr double kBorder = 2, kLift = 1;
}  // namespace

void add_token(Scene& s, const Palette& p, const TextMetrics& m, Point c, double size, Color fill,
               const std::string& label, double alpha) {
    if (alpha <= 0) return;
    const TextStyle style = tabular(weighted(style_of(Role::small), Weight::semibold));
    const TextExtent e = m.measure(label, style);
    const bool labelled = !label.empty() && e.advance + 2 * kLabelPad <= size * kMaxLabelWidth &&
                          size >= kLabelledToken;
    const double w = labelled ? std::max(size, e.advance + 2 * kLabelPad + 2) : size;
    s.add(filled(box_around(c, w, size), kRadius, fill, p.background, kBorder), alpha);
    if (labelled)
        s.add(Text{c.x, c.y + (e.ascent - e.descent) / 2 - kLift, label, style, p.background,
                   Align::center},
              alpha);
}

}  // namespace story
