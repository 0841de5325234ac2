// Shared pieces of the strategy chapters.
#include "story/strategy_kit.hpp"

#include <algorithm>
#include <cmath>

#include "story/format.hpp"

namespace story {

Color mix(Color a, Color b, double k) {
    const auto channel = [k](std::uint8_t x, std::uint8_t y) {
        return static_cast<std::uint8_t>(std::lround(x + (y - x) * std::clamp(k, 0.0, 1.0)));
    };
    return {channel(a.r, b.r), channel(a.g, b.g), channel(a.b, b.b), channel(a.a, b.a)};
}

namespace {

// WCAG relative luminance.
double luminance(Color c) {
    const auto lin = [](std::uint8_t v) {
        const double s = v / 255.0;
        return s <= 0.03928 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}

double contrast(Color a, Color b) {
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

}  // namespace

Color readable_on(const Palette& p, Color fill) {
    return contrast(p.text, fill) >= contrast(p.background, fill) ? p.text : p.background;
}

PassColors pass_colors(const Palette& p) {
    // Backward is the forward colour pulled halfway to the background: darker on the dark
    // theme, lighter on the light one, the same hue either way.
    return {p.weights, mix(p.weights, p.background, 0.5)};
}

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

std::string count_text(double from, double to, double u) {
    return format_int(std::lround(from + (to - from) * u));
}

}  // namespace story
