// FrameRaster (redrawing only what changed between frames) must give exactly the pixels of a full
// rasterize() of every frame, whatever stays still, moves or changes canvas.
#include <sstream>
#include <vector>

#include "render/draw/raster.hpp"
#include "render/inputs/storyboard_inputs.hpp"
#include "story/chapter/chapter.hpp"
#include "story/storyboard/time.hpp"
#include "test_scene.hpp"
#include "tests/catch.hpp"

namespace {

// Frames of storyboards/light-tour.yaml's first two chapters at 320x180, every 4th frame, plus
// the same frame twice (the unchanged fast path) and a hand-built scene (a changed canvas).
std::vector<story::Scene> sample_scenes() {
    std::ostringstream err;
    const auto board =
        render::load_storyboard(SHARDREEL_SOURCE_DIR "/storyboards/light-tour.yaml", err);
    REQUIRE(board);
    std::vector<story::Scene> scenes;
    for (std::size_t c = 0; c < 2; ++c) {
        const auto chapter =
            story::make_chapter(board->chapters[c], board->video, render_test::shipped_fonts());
        const int frames = story::frame_count(board->chapters[c].duration, board->video.fps);
        for (int f = 0; f < frames; f += 4)
            scenes.push_back(chapter->scene_at(story::time_of_frame(f, board->video.fps)));
        scenes.push_back(scenes.back());
    }
    scenes.push_back(render_test::test_scene(story::ThemeName::dark));
    scenes.push_back(scenes.front());
    return scenes;
}

}  // namespace

TEST_CASE("FrameRaster draws exactly what rasterize draws, frame after frame") {
    const auto scenes = sample_scenes();
    render::FrameRaster raster(render_test::shipped_fonts(), 320, 180);
    render::Frame full{320, 180};
    int unchanged = 0;
    for (std::size_t i = 0; i < scenes.size(); ++i) {
        INFO("scene " << i);
        const bool drawn = raster.draw(scenes[i]);
        if (!drawn) ++unchanged;
        CHECK(drawn == (i == 0 || !(scenes[i] == scenes[i - 1])));
        render::rasterize(scenes[i], render_test::shipped_fonts(), full);
        REQUIRE(raster.frame().data == full.data);
    }
    CHECK(unchanged >= 2);
}
