// Renders a chapter of a storyboard to a PNG at a given time and size, for golden tests of
// chapter kinds.
#pragma once
#include <string>

namespace render_test {

// Loads storyboard (REQUIREs it to be valid) in `lang` (empty: its own language), renders
// chapter `id` at t seconds to a scratch PNG of width x height, and returns its path.
std::string chapter_png(const std::string& storyboard, const std::string& id, double t,
                        int width = 480, int height = 270, const std::string& lang = {});

}  // namespace render_test
