// Fixtures shared by the painter, golden and stills tests: a hand-built scene using every
// display-list item and palette colour, the shipped fonts, and a scratch directory.
#pragma once
#include <string>

#include "render/draw/fonts.hpp"
#include "story/scene/scene.hpp"
#include "story/scene/theme.hpp"

namespace render_test {

story::Scene test_scene(story::ThemeName theme);

const render::Fonts& shipped_fonts();

// A path in a per-process scratch directory (created on first use).
std::string scratch_path(const std::string& name);

// Draws scene through make_sink(path): the same path the CLI's `still` takes.
void render_still(const story::Scene& scene, const std::string& path, int width, int height);

}  // namespace render_test
