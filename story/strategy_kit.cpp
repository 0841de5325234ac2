// The strategy chapters' legend row; see strategy_kit.hpp.
#include "story/strategy_kit.hpp"

namespace story {

double add_legend(Scene& s, const Palette& p, const TextMetrics& m, double x, double baseline,
                  const std::vector<LegendEntry>& entries, double alpha) {
    const TextStyle style{frame::kLabelSize, Weight::regular, false};
    for (const LegendEntry& e : entries) {
        Rect swatch{x, baseline - 20, 22, 22, 4, e.color};
        if (e.hatched) {
            swatch.fill = p.panel;
            swatch.hatch = e.color;
            swatch.stroke = e.color;
            swatch.stroke_width = 1.5;
        }
        s.add(swatch, alpha);
        s.add(Text{x + 32, baseline, e.label, style, p.text}, alpha);
        x += 32 + m.measure(e.label, style).advance + 36;
    }
    return x - 36;
}

}  // namespace story
