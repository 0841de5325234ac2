// Stateless: draws a story::Scene with Cairo, the same code for image and vector surfaces.
#pragma once
#include <cairo.h>

#include <cstddef>

#include "render/draw/fonts.hpp"
#include "story/scene/scene.hpp"

namespace render {

// Where paint() puts the scene on a width x height output: authoring px times scale, then offset
// by (dx, dy); uniform and centred, so a different aspect ratio letterboxes.
struct Fit {
    double scale = 1, dx = 0, dy = 0;
};
Fit fit(const story::Scene& scene, int width, int height);

// Draws scene scaled uniformly from its authoring space to width x height.
void paint(cairo_t* cr, const story::Scene& scene, const Fonts& fonts, int width, int height);

// paint() in steps, for redrawing only what changed: the background, then items [first, last)
// over it. Painting items [0, k) and then [k, n) gives exactly the pixels of paint().
void paint_background(cairo_t* cr, const story::Scene& scene);
void paint_items(cairo_t* cr, const story::Scene& scene, const Fonts& fonts, int width, int height,
                 std::size_t first, std::size_t last);

}  // namespace render
