// Stateless: draws a story::Scene with Cairo, the same code for image and vector surfaces.
#pragma once
#include <cairo.h>

#include "render/fonts.hpp"
#include "story/scene.hpp"

namespace render {

// Where paint() puts the scene on a width x height output: authoring px times scale, then offset
// by (dx, dy); uniform and centred, so a different aspect ratio letterboxes.
struct Fit {
    double scale = 1, dx = 0, dy = 0;
};
Fit fit(const story::Scene& scene, int width, int height);

// Draws scene scaled uniformly from its authoring space to width x height.
void paint(cairo_t* cr, const story::Scene& scene, const Fonts& fonts, int width, int height);

}  // namespace render
