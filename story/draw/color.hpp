// Colours pictures derive from the palette: a mix of two, the text colour that reads on a fill,
// and the two shades of one colour the forward and backward passes are drawn in.
#pragma once
#include "story/scene/theme.hpp"

namespace story {

Color mix(Color a, Color b, double k);  // k = 0: a, k = 1: b
// The palette's text or background colour, whichever contrasts more with fill.
Color readable_on(const Palette& p, Color fill);

// STYLE.md "Timeline": forward and backward passes in two shades of one colour; a backward
// split into B and W (zero-bubble schedules) draws W in a third, paler shade of the backward.
struct PassColors {
    Color forward, backward, weight_grad;
};
PassColors pass_colors(const Palette& p);

}  // namespace story
