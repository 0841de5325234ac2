// Stills: one frame of one chapter, for articles.
#pragma once
#include <string>

#include "render/draw/fonts.hpp"
#include "story/scene/scene.hpp"
#include "story/storyboard/storyboard.hpp"

namespace render {

// One frame of one chapter at t seconds, to a PNG, SVG or PDF chosen by extension.
void render_still(const story::ChapterSpec& chapter, const story::Video& video, double t,
                  const std::string& output, const Fonts& fonts);

// A scene drawn at the video's size to `output` (PNG, SVG or PDF by extension).
void write_still(const story::Scene& scene, const story::Video& video, const std::string& output,
                 const Fonts& fonts);

// The PNG bytes write_still gives for the scene at the video's size, in memory.
std::string scene_png(const story::Scene& scene, const story::Video& video, const Fonts& fonts);

}  // namespace render
