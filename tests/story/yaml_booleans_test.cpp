// YAML 1.1 booleans as storyboards write them: every spelling a flag, captions' false ones as
// off, and the fixture that writes them read as flags and its text as text.
#include "engine/presets.hpp"
#include "story/chapter/chapter.hpp"
#include "story/storyboard/limits.hpp"
#include "story/storyboard/settings.hpp"
#include "tests/catch.hpp"
#include "tests/story/expectations.hpp"
#include "tests/story/load_fixture.hpp"

using story_test::errors_of;
using story_test::load_ok;
using story_test::slurp;

namespace {

const std::string kSource = SHARDREEL_SOURCE_DIR;

}  // namespace

TEST_CASE("flags take every YAML 1.1 boolean, captions its false ones as off") {
    const auto flash = [](std::string_view word) {
        return load_ok("shardreel: 1\ndefaults: {training: {flash_attention: " + std::string(word) +
                       "}}\nchapters: [{id: a, kind: title}]\n")
            .defaults.training.flash_attention;
    };
    const auto captions = [](std::string_view word) {
        return load_ok("shardreel: 1\nvideo: {captions: " + std::string(word) +
                       "}\nchapters: [{id: a, kind: title}]\n")
            .video.captions;
    };
    for (std::string_view w : story::limits::kTrueWords) {
        INFO(w);
        CHECK(flash(w));
        CHECK(story::parse_flag(w) == true);
    }
    for (std::string_view w : story::limits::kFalseWords) {
        INFO(w);
        CHECK_FALSE(flash(w));
        CHECK(captions(w) == story::Captions::off);
    }
    CHECK(story::parse_flag("maybe") == std::nullopt);
    CHECK(story::parse_flag("yES") == std::nullopt);
    CHECK(errors_of("shardreel: 1\nvideo: {captions: true}\nchapters: [{id: a, kind: title}]\n") ==
          "test.yaml:2:19: error: unknown captions 'true' (expected burn, track or off)\n");
}

TEST_CASE("the YAML 1.1 fixture reads its booleans as flags and its text as text") {
    const std::string path = kSource + "/tests/storyboards/good/yaml11_booleans.yaml";
    const story::Storyboard sb = load_ok(slurp(path));
    CHECK(sb.title == "Yes");
    CHECK(sb.video.captions == story::Captions::off);
    CHECK(sb.defaults.training.flash_attention);
    CHECK_FALSE(sb.defaults.training.sequence_parallel);
    REQUIRE(sb.chapters.size() == 1);
    CHECK(sb.chapters[0].title == "On");
    REQUIRE(sb.chapters[0].beats.size() == 2);
    CHECK(sb.chapters[0].beats[0].say == "No");
    CHECK(sb.chapters[0].beats[1].set ==
          std::vector<story::Setting>{{"flash_attention", "false", {19, 15}, {19, 32}},
                                      {"sequence_parallel", "ON", {19, 39}, {19, 58}}});
}
