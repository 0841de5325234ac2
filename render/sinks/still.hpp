// Stills: one frame of one chapter, for articles.
#pragma once
#include <string>

#include "render/draw/fonts.hpp"
#include "story/storyboard.hpp"

namespace render {

// One frame of one chapter at t seconds, to a PNG, SVG or PDF chosen by extension.
void render_still(const story::ChapterSpec& chapter, const story::Video& video, double t,
                  const std::string& output, const Fonts& fonts);

}  // namespace render
