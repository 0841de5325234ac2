// The default film's phases timed by the voices it ships (tests/story/choreography_test.cpp times
// them by reading estimates): each shown phase begins on its line, in English (Festival) and
// German (espeak-ng), drawn with the shipped fonts. The lines are spoken into a scratch cache.
#include <filesystem>
#include <sstream>

#include "render/draw/fonts.hpp"
#include "render/inputs/storyboard_inputs.hpp"
#include "tests/catch.hpp"
#include "tests/story/pins.hpp"

TEST_CASE("the default film's phases begin on their lines as its voices time them",
          "[choreography][sound]") {
    std::optional<render::TempDir> scratch;
    const std::string saved = render::speech_cache();
    render::use_scratch_speech_cache(scratch);
    const render::Fonts fonts(render::default_font_dir());
    const std::string path =
        std::string(SHARDREEL_SOURCE_DIR) + "/storyboards/distributed-training.yaml";
    for (const char* lang : {"en", "de"}) {
        INFO(lang);
        std::ostringstream err;
        const auto board = render::load_storyboard(path, err, lang);
        INFO(err.str());
        REQUIRE(board);
        story::Video video = board->video;
        video.captions = story::Captions::off;
        int pinned = 0, voiced = 0;
        for (const story::ChapterSpec& spec : board->chapters) {
            pinned += chapter_test::check_pins(spec, video, fonts);
            for (const story::Beat& b : spec.beats) voiced += b.speech.has_value();
        }
        CHECK(pinned >= 44);
        CHECK(voiced > 50);  // timed by the voice, not by reading estimates
    }
    render::speech_cache() = saved;
}
