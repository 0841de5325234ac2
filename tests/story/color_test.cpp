// Colours derived from the palette (story/draw/color.hpp): mixes, readable text, pass shades.
#include "story/draw/color.hpp"

#include "tests/catch.hpp"

using namespace story;

TEST_CASE("mix runs from one colour to the other, clamped", "[draw][color]") {
    const Color black{0, 0, 0, 255}, white{255, 255, 255, 255};
    CHECK(mix(black, white, 0) == black);
    CHECK(mix(black, white, 1) == white);
    CHECK(mix(black, white, 0.5) == Color{128, 128, 128, 255});
    CHECK(mix(black, white, 2) == white);
}

TEST_CASE("readable_on picks the palette colour that contrasts more with the fill",
          "[draw][color]") {
    for (ThemeName theme : {ThemeName::dark, ThemeName::light}) {
        const Palette& p = palette(theme);
        CHECK(readable_on(p, p.background) == p.text);
        CHECK(readable_on(p, p.text) == p.background);
    }
    const Palette& dark = palette(ThemeName::dark);
    CHECK(readable_on(dark, Color{250, 250, 250, 255}) == dark.background);
    CHECK(readable_on(dark, Color{10, 10, 10, 255}) == dark.text);
}

TEST_CASE("backward passes are the forward colour halfway to the background", "[draw][color]") {
    for (ThemeName theme : {ThemeName::dark, ThemeName::light}) {
        const Palette& p = palette(theme);
        const PassColors c = pass_colors(p);
        CHECK(c.forward == p.weights);
        CHECK(c.backward == mix(p.weights, p.background, 0.5));
        CHECK(c.backward != c.forward);
    }
}
