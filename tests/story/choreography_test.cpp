// Choreography on the beats (story/chapter/choreography.hpp): a kind's authored times scaled as
// before when no beat shows a phase, pinned to the beats that do, and in both shipped films every
// phase a line names begins on that line, in every language, and the drawing follows it.
#include "story/chapter/choreography.hpp"

#include <fstream>
#include <sstream>

#include "story/chapter/chapter.hpp"
#include "tests/catch.hpp"
#include "tests/story/chapter_fixture.hpp"
#include "tests/story/films.hpp"
#include "tests/story/pins.hpp"

using story::Choreography;

namespace {

story::ChapterSpec spec_of(const char* kind, double duration, bool stretch) {
    story::ChapterSpec spec;
    spec.kind = kind;
    spec.duration = duration;
    spec.stretch = stretch;
    return spec;
}

story::Beat shows(double at, const char* phase) {
    story::Beat b;
    b.at = at;
    b.show = phase;
    return b;
}

}  // namespace

TEST_CASE("with no phase shown, authored times compress, stretch or keep the kind's pace",
          "[choreography]") {
    const story::KindInfo* bytes = story::find_kind("bytes_per_parameter");  // 24 s by default
    REQUIRE(bytes->default_duration == 24);
    CHECK(Choreography(spec_of("bytes_per_parameter", 12, false), bytes).at(6) == 3);
    CHECK(Choreography(spec_of("bytes_per_parameter", 12, true), bytes).at(6) == 3);
    CHECK(Choreography(spec_of("bytes_per_parameter", 48, false), bytes).at(6) == 6);  // tail
    CHECK(Choreography(spec_of("bytes_per_parameter", 48, true), bytes).at(6) == 12);
    CHECK(Choreography(spec_of("bytes_per_parameter", 24, true), bytes).at(6) == 6);
    CHECK(Choreography(spec_of("bytes_per_parameter", 48, true), bytes).span(6, 3) == 6);
}

TEST_CASE("a shown phase begins on its beat, and the times around it spread between the pins",
          "[choreography]") {
    const story::KindInfo* bytes = story::find_kind("bytes_per_parameter");
    story::ChapterSpec spec = spec_of("bytes_per_parameter", 60, true);
    spec.beats = {shows(25, "card")};  // card: authored at 5.5 s
    const Choreography c(spec, bytes);
    CHECK(c.at(5.5) == Approx(25));
    CHECK(c.at(2.75) == Approx(12.5));                     // halfway to it
    CHECK(c.at(5.5 + 18.5 / 2) == Approx(25 + 35.0 / 2));  // halfway from it to the end
    CHECK(c.at(24) == Approx(60));
    // fit: tail: after the last pin at the kind's own pace, within the chapter.
    story::ChapterSpec tail = spec;
    tail.stretch = false;
    tail.duration = 50;
    CHECK(Choreography(tail, bytes).at(6.5) == Approx(26));
    CHECK(Choreography(tail, bytes).at(24) == Approx(43.5));
    tail.duration = 40;  // too short for that pace: compressed to its end
    CHECK(Choreography(tail, bytes).at(24) == Approx(40));
    // A phase pinned before an earlier one's beat would fold time back: it is not followed.
    spec.beats = {shows(25, "card"), shows(20, "spread")};
    CHECK(Choreography(spec, bytes).at(11) > 25);
}

TEST_CASE("in both films every phase a line names begins on that line, and the picture follows",
          "[choreography]") {
    for (const char* film : {"distributed-training.yaml", "beyond-3d.yaml"}) {
        for (const std::string& lang : chapter_test::film_in(film, "").languages) {
            INFO(film << " in " << lang);
            const story::Storyboard board = chapter_test::film_in(film, lang);
            story::Video video = board.video;
            video.captions = story::Captions::off;  // a moved beat moves its caption too
            int pinned = 0;
            for (const story::ChapterSpec& spec : board.chapters)
                pinned += chapter_test::check_pins(spec, video);
            CHECK(pinned >= (std::string(film) == "beyond-3d.yaml" ? 38 : 45));
        }
    }
}
