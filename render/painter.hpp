// Stateless: draws a story::Scene with Cairo, the same code for image and vector surfaces.
#pragma once
#include <cairo.h>

#include "render/fonts.hpp"
#include "story/scene.hpp"

namespace render {

// Draws scene scaled uniformly from its authoring space to width x height.
void paint(cairo_t* cr, const story::Scene& scene, const Fonts& fonts, int width, int height);

}  // namespace render
