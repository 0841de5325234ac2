// The legend row; see legend.hpp.
#include "story/draw/legend.hpp"

#include <algorithm>

#include "story/draw/text.hpp"

namespace story {

namespace {
// A swatch kSwatch px square, its top kSwatchRise above the baseline (it centres on the label's
// ink); the label kLabelGap right of the swatch's left edge.
constexpr double kSwatch = 22, kSwatchRise = 20, kRadius = 4, kLabelGap = 32, kHatchStroke = 1.5;
}  // namespace

double add_legend(Scene& s, const Palette& p, const TextMetrics& m, double x, double baseline,
                  const std::vector<LegendEntry>& entries, double alpha) {
    const TextStyle style = style_of(Role::note);
    for (const LegendEntry& e : entries) {
        const double a = std::min(alpha, e.opacity);
        Rect swatch{x, baseline - kSwatchRise, kSwatch, kSwatch, kRadius, e.color};
        if (e.hatched) {
            swatch.fill = p.panel;
            swatch.hatch = e.color;
            swatch.stroke = e.color;
            swatch.stroke_width = kHatchStroke;
        }
        s.add(swatch, a);
        s.add(Text{x + kLabelGap, baseline, e.label, style, p.text}, a);
        x += kLabelGap + m.measure(e.label, style).advance + kLegendGap;
    }
    return x - kLegendGap;
}

}  // namespace story
