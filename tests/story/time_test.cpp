// Time, easing and beat timelines: the clock every chapter runs on.
#include "story/storyboard/time.hpp"

#include "engine/presets.hpp"
#include "story/time/easing.hpp"
#include "story/time/timeline.hpp"
#include "tests/catch.hpp"

using namespace story;

TEST_CASE("a one-second chapter has exactly fps frames", "[time]") {
    for (int fps : {15, 24, 30, 60}) {
        CHECK(frame_count(1.0, fps) == fps);
        CHECK(time_of_frame(fps, fps) == 1.0);
    }
    CHECK(frame_count(18.0, 30) == 540);
    CHECK(frame_count(0.1, 30) == 3);  // never accumulated: 0.1 * 30 rounds to 3 frames
    // t = f / fps is exact for every frame, not summed from 1/fps steps.
    CHECK(time_of_frame(2999, 30) == 2999.0 / 30);
    CHECK(chapter_frame(0.45, 40, 10) == 5);  // nearest, a half away from zero
    CHECK(chapter_frame(4.5, 40, 10) == 40);  // at most the chapter's length
}

TEST_CASE("easings start at 0, end at 1 and are monotonic", "[easing]") {
    for (Ease e : {Ease::linear, Ease::in_cubic, Ease::out_cubic, Ease::in_out_cubic,
                   Ease::smoothstep, Ease::smootherstep, Ease::smooth}) {
        CHECK(ease(e, 0) == Approx(0).margin(1e-12));
        CHECK(ease(e, 1) == Approx(1).margin(1e-12));
        CHECK(ease(e, -3) == ease(e, 0));
        CHECK(ease(e, 7) == ease(e, 1));
        double prev = 0;
        for (int i = 1; i <= 100; ++i) {
            const double v = ease(e, i / 100.0);
            CHECK(v >= prev - 1e-12);
            prev = v;
        }
    }
    CHECK(ease(Ease::in_out_cubic, 0.5) == Approx(0.5));
    CHECK(ease(Ease::in_out_cubic, 0.25) == Approx(0.0625));
    CHECK(ease(Ease::smoothstep, 0.25) == Approx(0.15625));
}

namespace {

ChapterSpec spec_with_beats() {
    ChapterSpec spec;
    spec.id = "bytes";
    spec.kind = "bytes_per_parameter";
    spec.duration = 20;
    spec.config.model = engine::nominal_model(7e9);
    spec.beats = {Beat{0, 0, "first", {}, {}}, Beat{5, 2, "switch", {{"precision", "fp8", {}}}, {}},
                  Beat{12, 0, "", {}, {}}, Beat{15, 0, "last", {}, {}}};
    return spec;
}

}  // namespace

TEST_CASE("timeline: captions run from their beat to the next beat", "[timeline]") {
    const Timeline tl(spec_with_beats(), 10);
    REQUIRE(tl.cues().size() == 3);
    CHECK(tl.cues()[0] == Cue{0, 0, 0, 50, "first"});
    CHECK(tl.cues()[1] == Cue{0, 1, 50, 120, "switch"});  // the silent beat at 12 s ends it
    CHECK(tl.cues()[2] == Cue{0, 3, 150, 200, "last"});
    CHECK(tl.cue_at(4.99)->text == "first");
    CHECK(tl.cue_at(12.5) == nullptr);
    CHECK(tl.cue_at(19.9)->text == "last");
}

TEST_CASE("timeline: set beats produce states and morph progress", "[timeline]") {
    const Timeline tl(spec_with_beats(), 10);
    REQUIRE(tl.states().size() == 2);
    CHECK(tl.states()[0].training.precision == engine::Precision::bf16_mixed);
    CHECK(tl.states()[1].training.precision == engine::Precision::fp8_mixed);
    CHECK(tl.morph_at(4.9).to == 0);
    const Morph start = tl.morph_at(5);
    CHECK((start.from == 0 && start.to == 1 && start.u == 0));
    CHECK(tl.morph_at(6).u == Approx(0.5));
    CHECK(tl.morph_at(7).u == 1);
    CHECK(tl.morph_at(19).u == 1);
    CHECK((tl.state_start(1) == 5 && tl.state_over(1) == 2 && tl.state_end(1) == 7));
}

TEST_CASE("timeline: a beat's picture rests half a second after its morph, before the next beat",
          "[timeline]") {
    const Timeline tl(spec_with_beats(), 10);
    CHECK(tl.rest_frame(0) == 5);    // 0 s + 0.5 s
    CHECK(tl.rest_frame(1) == 75);   // 5 s + 2 s over + 0.5 s
    CHECK(tl.rest_frame(2) == 125);  // 12 s + 0.5 s
    CHECK(tl.rest_frame(3) == 155);
    ChapterSpec close = spec_with_beats();
    close.beats[2].at = 7.2;  // the next beat comes before the morph's rest: its frame before
    CHECK(Timeline(close, 10).rest_frame(1) == 71);
    close.beats[3].at = 19.9;  // at most the chapter's last frame (199 at 10 fps)
    CHECK(Timeline(close, 10).rest_frame(3) == 199);
    close.beats[3].at = 7.2;  // two beats on one frame: never before the beat's own frame
    CHECK(Timeline(close, 10).rest_frame(2) == 72);
}
