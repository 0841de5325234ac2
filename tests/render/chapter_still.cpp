// Chapter stills for golden tests; see chapter_still.hpp.
#include "tests/render/chapter_still.hpp"

#include <sstream>

#include "render/inputs/storyboard_inputs.hpp"
#include "render/sinks/still.hpp"
#include "tests/catch.hpp"
#include "tests/render/test_scene.hpp"

namespace render_test {

std::string chapter_png(const std::string& storyboard, const std::string& id, double t, int width,
                        int height, const std::string& lang) {
    std::ostringstream errors;
    const auto board = render::load_storyboard(storyboard, errors, lang);
    INFO(errors.str());
    REQUIRE(board);
    const story::ChapterSpec* chapter = nullptr;
    for (const auto& c : board->chapters)
        if (c.id == id) chapter = &c;
    REQUIRE(chapter);
    story::Video video = board->video;
    video.width = width;
    video.height = height;
    static const render::Fonts fonts(render::default_font_dir());
    const std::string png =
        scratch_path("chapter-" + id + (lang.empty() ? "" : "-" + lang) + ".png");
    render::render_still(*chapter, video, t, png, fonts);
    return png;
}

}  // namespace render_test
