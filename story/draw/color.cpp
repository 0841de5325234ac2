// Colours derived from the palette; see color.hpp.
#include "story/draw/color.hpp"

#include <algorithm>
#include <cmath>

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
    const Color backward = mix(p.weights, p.background, 0.5);
    return {p.weights, backward, mix(backward, p.muted, 0.55)};
}

}  // namespace story
