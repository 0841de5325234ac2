// The one caption cue (story/time/cue.hpp) where it could drift from the frames: a line that starts
// on a frame boundary or between two frames, a line shorter than a frame, and the last line
// running to the chapter's end. A chapter's Timeline (the caption burned in at a time) and the
// film's clock (the caption files, the contact sheet, the studio) must give the same answer.
#include "story/time/cue.hpp"

#include <cmath>

#include "story/storyboard/time.hpp"
#include "story/time/film_time.hpp"
#include "story/time/timeline.hpp"
#include "tests/catch.hpp"

using namespace story;

namespace {

ChapterSpec chapter(double duration, std::vector<Beat> beats) {
    ChapterSpec spec;
    spec.id = "c";
    spec.duration = duration;
    spec.beats = std::move(beats);
    return spec;
}

Beat say(double at, const std::string& text) { return Beat{at, 0, text, {}, {}}; }

// The caption burned in at t, "-" for none.
std::string burned(const Timeline& timeline, double t) {
    const Cue* cue = timeline.cue_at(t);
    return cue ? cue->text : "-";
}

}  // namespace

TEST_CASE("cue: a line on a frame boundary starts on that frame, not the one before", "[cue]") {
    // 10 fps: 0.5 s is frame 5 exactly.
    const Timeline timeline(chapter(1, {say(0, "one"), say(0.5, "two")}), 10);
    CHECK(timeline.cues() == std::vector<Cue>{{0, 0, 0, 5, "one"}, {0, 1, 5, 10, "two"}});
    CHECK(burned(timeline, std::nextafter(0.5, 0.0)) == "one");  // still frame 4
    CHECK(burned(timeline, 0.5) == "two");
    CHECK(burned(timeline, 0.599) == "two");
    CHECK(cue_at(timeline.cues(), 4)->text == "one");
    CHECK(cue_at(timeline.cues(), 5)->text == "two");
}

TEST_CASE("cue: a line between two frames starts on the nearest, as the caption files have it",
          "[cue]") {
    // 10 fps: 0.44 s is 4.4 frames (frame 4), 0.46 s is 4.6 frames (frame 5).
    const Timeline early(chapter(1, {say(0, "one"), say(0.44, "two")}), 10);
    CHECK(early.cues()[1] == Cue{0, 1, 4, 10, "two"});
    CHECK(burned(early, 0.4) == "two");  // frame 4 shows it, though 0.4 s is before 0.44 s
    const Timeline late(chapter(1, {say(0, "one"), say(0.46, "two")}), 10);
    CHECK(late.cues()[1] == Cue{0, 1, 5, 10, "two"});
    CHECK(burned(late, 0.5) == "two");
    // Between frames the caption is the one on the frame on screen, the last begun: 0.47 s is
    // after the line's 0.46 s, but frame 4 is still on screen.
    CHECK(burned(late, 0.47) == "one");
    CHECK(burned(late, 0.549) == "two");
}

TEST_CASE("cue: a line shorter than a frame is no cue, here or in the film", "[cue]") {
    // 15 fps: 0.61 s and 0.63 s are both frame 9, so "brief" never shows.
    const ChapterSpec spec =
        chapter(0.7, {say(0.1, "three"), say(0.61, "brief"), say(0.63, "four")});
    const Timeline timeline(spec, 15);
    CHECK(timeline.cues() == std::vector<Cue>{{0, 0, 2, 9, "three"}, {0, 2, 9, 11, "four"}});
    CHECK(burned(timeline, 0.61) == "four");
    const FilmTime time({spec}, 15);
    CHECK(time.cues() == timeline.cues());  // one chapter: its frames are the film's
    CHECK(time.cue_at(9)->beat == 2);
}

TEST_CASE("cue: the last line ends at the chapter's end, never in the next chapter", "[cue]") {
    // 0.7 s at 15 fps is 10.5 frames, so 11: the last line shows on frames 9 and 10 only.
    const ChapterSpec a = chapter(0.7, {say(0, "one"), say(0.6, "last")});
    const ChapterSpec b = chapter(1, {say(0.2, "next")});
    const Timeline timeline(a, 15);
    CHECK(timeline.cues().back() == Cue{0, 1, 9, 11, "last"});
    CHECK(burned(timeline, timeline.seconds(10)) == "last");
    CHECK(burned(timeline, timeline.seconds(11)) == "-");
    const FilmTime time({a, b}, 15);
    CHECK(time.cue_at(10)->text == "last");
    CHECK(time.cue_at(11) == nullptr);  // chapter b's frame 0: its line starts at its frame 3
    CHECK(time.cue_at(14)->text == "next");
    CHECK(time.cues().back() == Cue{1, 0, 14, 26, "next"});
    CHECK(time.cues().back().end == time.frames());
}

TEST_CASE("cue: a voiced line past the chapter's end is cut at its last frame", "[cue]") {
    ChapterSpec spec = chapter(1, {say(0.5, "long")});
    spec.beats[0].speech = Speech{2, {}};
    spec.narration.engine = VoiceEngine::espeak;
    CHECK(caption_end(spec, 0) == 1);
    CHECK(Timeline(spec, 30).cues() == std::vector<Cue>{{0, 0, 15, 30, "long"}});
}

TEST_CASE("cue: after a voiced line's caption ends, it is still the last cue begun", "[cue]") {
    // 10 fps: a 1 s line at 0.5 s shows to 2 s (0.5 s after its speech); the chapter runs to 4 s.
    ChapterSpec spec = chapter(4, {say(0.5, "spoken")});
    spec.beats[0].speech = Speech{1, {}};
    spec.narration.engine = VoiceEngine::espeak;
    const std::vector<Cue> cues = chapter_cues(spec, 10);
    CHECK(cues == std::vector<Cue>{{0, 0, 5, 20, "spoken"}});
    CHECK(cue_begun(cues, 4) == nullptr);
    CHECK(cue_at(cues, 19)->text == "spoken");
    CHECK(cue_at(cues, 20) == nullptr);            // nothing shows
    CHECK(cue_begun(cues, 39)->text == "spoken");  // but it is the last line shown
}
