// story::timed: after chains and their gaps, bookmarks, auto durations, the sort, the checks that
// wait for the times, and every speech overrun with its figures; the reading estimate that times
// silent films; check's speech summary.
#include "story/load/timed.hpp"

#include <stdexcept>

#include "story/load/load.hpp"
#include "tests/catch.hpp"

namespace {

using story::Beat;
using story::Speech;
using story::Storyboard;

// A storyboard as the loader gives it (file order, no speech yet).
Storyboard parsed(const std::string& text) {
    story::Diagnostics diags;
    auto sb = story::parse_storyboard(text, "t.yaml", diags);
    INFO(diags.format());
    REQUIRE(sb);
    return *sb;
}

// Gives chapter c's beat i (file order) the speech a voice would report.
void speak(Storyboard& sb, std::size_t c, std::size_t i, double seconds,
           std::vector<double> marks = {}) {
    sb.chapters.at(c).beats.at(i).speech = Speech{seconds, std::move(marks)};
}

struct Timed {
    std::optional<Storyboard> board;
    std::string diagnostics;  // errors and warnings as check prints them
};

Timed time(const Storyboard& sb) {
    story::Diagnostics errors;
    std::vector<story::Diagnostic> warnings;
    auto board = story::timed(sb, errors, warnings);
    return {std::move(board), story::format_diagnostics(errors, warnings)};
}

Storyboard timed_ok(const Storyboard& sb) {
    const Timed t = time(sb);
    INFO(t.diagnostics);
    REQUIRE(t.board);
    CHECK(t.diagnostics.empty());
    return *t.board;
}

std::vector<double> starts(const story::ChapterSpec& spec) {
    std::vector<double> out;
    for (const Beat& b : spec.beats) out.push_back(b.at);
    return out;
}

// One chapter of bytes_per_parameter (18 s by default) with a voice, then `beats` (indented).
std::string voiced(const std::string& chapter_keys, const std::string& beats) {
    return "shardreel: 1\n"
           "video: {narration: {voice: 'espeak-ng:en-us', gap: 0.25s, tail: 0.75s}}\n"
           "chapters:\n"
           "  - id: a\n"
           "    kind: bytes_per_parameter\n" +
           chapter_keys + "    beats:\n" + beats;
}

}  // namespace

TEST_CASE("the reading estimate is max(1 s, characters / 15), bookmarks in proportion") {
    Beat b;
    b.say = "Hi.";
    CHECK(story::reading_estimate(b) == Speech{1, {}});
    b.say = std::string(45, 'x');
    b.marks = {{"start", 0}, {"third", 15}, {"end", 45}};
    CHECK(story::reading_estimate(b) == Speech{3, {0, 1, 3}});
    // Characters, not bytes: 30 two-byte letters read as 30.
    b.say.clear();
    for (int i = 0; i < 30; ++i) b.say += "\xc3\xa9";
    b.marks = {{"half", 30}};  // byte 30: the 16th letter
    CHECK(story::reading_estimate(b) == Speech{2, {1}});
}

TEST_CASE("estimates fill the silent chapters' lines, or every line without a voice") {
    Storyboard sb = parsed(R"(shardreel: 1
chapters:
  - id: quiet
    kind: title
    narration: off
    beats: [{at: 0s, say: Silent.}, {at: 1s}]
  - id: loud
    kind: title
    narration: espeak-ng:en-us
    beats: [{at: 0s, say: Spoken.}]
)");
    Storyboard silent_only = sb;
    story::estimate_speech(silent_only);
    CHECK(silent_only.chapters[0].beats[0].speech == Speech{1, {}});
    CHECK_FALSE(silent_only.chapters[0].beats[1].speech);  // no line, no speech
    CHECK_FALSE(silent_only.chapters[1].beats[0].speech);  // the voice's to fill
    speak(sb, 1, 0, 2.5);
    story::estimate_speech(sb, true);
    CHECK(sb.chapters[0].beats[0].speech == Speech{1, {}});
    CHECK(sb.chapters[1].beats[0].speech == Speech{2.5, {}});  // kept
}

TEST_CASE("at: after chains from the speech before it plus the gap - the first from 0") {
    Storyboard sb = parsed(voiced("    duration: 18s\n", R"(      - {at: after, say: One.}
      - {at: after, gap: 1s, say: Two.}
      - {at: 9s}
      - {at: after, say: Three.}
      - {at: after}
)"));
    speak(sb, 0, 0, 2);
    speak(sb, 0, 1, 3);
    speak(sb, 0, 3, 1.5);
    const Storyboard t = timed_ok(sb);
    // 0 + 0.25; 0.25 + 2 + 1 (its own gap); the fixed 9 s beat; 9 + 0.25 (after the fixed beat,
    // which comes later than "Two." ends); 9.25 + 1.5 + 0.25.
    CHECK(starts(t.chapters[0]) == std::vector<double>{0.25, 3.25, 9, 9.25, 11});
    CHECK(t.chapters[0].duration == 18);
}

TEST_CASE("at: after waits for the line even past a beat on one of its bookmarks") {
    Storyboard sb = parsed(
        voiced("    duration: auto\n", R"(      - {at: 1s, say: "Scale to [[big]]seventy billion."}
      - {at: "mark:big", set: {model: llama-2-70b}, over: 1s}
      - {at: after, say: Then fp8.}
)"));
    speak(sb, 0, 0, 3, {0.8});
    speak(sb, 0, 2, 1);
    const Storyboard t = timed_ok(sb);
    CHECK(starts(t.chapters[0]) == std::vector<double>{1, 1.8, 4.25});
    CHECK(t.chapters[0].duration == 4.25 + 1 + 0.75);
    CHECK(t.chapters[0].beats[0].say == "Scale to seventy billion.");
}

TEST_CASE("timing sorts beats by their resolved time, stably") {
    Storyboard sb = parsed(voiced("    duration: 18s\n", R"(      - {at: 10s, say: Late.}
      - {at: 2s, say: Early.}
      - {at: after, say: After early.}
      - {at: 13s}
)"));
    speak(sb, 0, 0, 1);
    speak(sb, 0, 1, 1);
    speak(sb, 0, 2, 1);
    const Storyboard t = timed_ok(sb);
    // "After early." follows "Late." in the file, so it waits for it: 11 + 0.25.
    CHECK(starts(t.chapters[0]) == std::vector<double>{2, 10, 11.25, 13});
    CHECK(t.chapters[0].beats[2].say == "After early.");
}

TEST_CASE("duration: auto ends at the last speech plus the chapter's tail") {
    Storyboard sb = parsed(voiced("    duration: auto\n    narration: {tail: 2s}\n",
                                  R"(      - {at: 0s, say: Long line.}
      - {at: 1s, say: Short.}
)"));
    speak(sb, 0, 0, 0.9);
    speak(sb, 0, 1, 4);
    const Storyboard t = timed_ok(sb);
    CHECK(t.chapters[0].narration.tail == 2);
    CHECK(t.chapters[0].narration.gap == 0.25);  // the film's, field by field
    CHECK(t.chapters[0].auto_duration);
    CHECK(t.chapters[0].duration == 7);
}

TEST_CASE("after resolution, beats outside the chapter and beats at one time are errors") {
    Storyboard sb = parsed(voiced("    duration: 4s\n", R"(      - {at: 0s, say: One.}
      - {at: after, gap: 0s, set: {precision: fp8}}
      - {at: after, gap: 3.5s}
)"));
    speak(sb, 0, 0, 1);
    const Timed t = time(sb);
    CHECK_FALSE(t.board);
    CHECK(t.diagnostics ==
          "t.yaml:10:14: error: beat at 4.5s is outside chapter 'a' (duration 4s)\n");
    sb.chapters[0].beats[2].gap = 0;
    CHECK(time(sb).diagnostics ==
          "t.yaml:10:14: error: two beats at 1s in chapter 'a' (the other is on line 9)\n");
}

TEST_CASE("an auto chapter's beat past its end names the auto duration") {
    Storyboard sb = parsed(voiced("    duration: auto\n", R"(      - {at: 0s, say: One.}
      - {at: 5s}
)"));
    speak(sb, 0, 0, 1);
    CHECK(time(sb).diagnostics ==
          "t.yaml:9:14: error: beat at 5s is outside chapter 'a' (duration auto, 1.75s)\n");
}

TEST_CASE("set: sequences are checked in resolved order") {
    // pp 40 is valid for llama-2-13b (40 layers), not for llama-2-7b (32): which state comes
    // last decides, and the mark puts the 7b switch after the 13b one.
    Storyboard sb = parsed(R"(shardreel: 1
video: {narration: espeak-ng:en-us}
defaults: {cluster: {nodes: 5}, parallel: {pp: 40}, model: llama-2-13b}
chapters:
  - id: a
    kind: bytes_per_parameter
    beats:
      - {at: 1s, say: "Now [[small]]smaller."}
      - {at: "mark:small", set: {model: llama-2-7b}}
      - {at: 1.1s, set: {model: llama-2-13b}}
)");
    speak(sb, 0, 0, 2, {0.5});
    // The line runs past the 13b beat too: a warning, sorted before the error by position.
    CHECK(time(sb).diagnostics ==
          "t.yaml:8:23: warning: speech runs 1.9s past the beat at 1.1s, line 10, which changes "
          "the picture mid-line\n"
          "t.yaml:9:28: error: set: at 1.5s makes the configuration in chapter 'a' invalid: layers "
          "= 32 is fewer than pp = 40 pipeline stages (use pp <= 32)\n");
}

TEST_CASE("speech past a fixed chapter's end is an error, by how much") {
    Storyboard sb =
        parsed(voiced("    duration: 5s\n", R"(      - {at: 2s, say: A line that runs long.}
)"));
    speak(sb, 0, 0, 4.2);
    const Timed t = time(sb);
    CHECK_FALSE(t.board);
    CHECK(t.diagnostics ==
          "t.yaml:8:23: error: speech runs 1.2s past the end of chapter 'a' (the line ends at "
          "6.2s, the chapter at 5s): give the chapter `duration: auto` or shorten the line\n");
}

TEST_CASE("speech into the next line is an error - past a beat that only animates, a warning") {
    Storyboard sb = parsed(voiced("    duration: 18s\n", R"(      - {at: 0s, say: First line.}
      - {at: 2s, set: {precision: fp8}}
      - {at: 2.5s, set: {precision: fp32}}
      - {at: 3s, say: Second line.}
      - {at: 8s, say: Third line.}
      - {at: 9s}
)"));
    speak(sb, 0, 0, 3.4);
    speak(sb, 0, 3, 1);
    speak(sb, 0, 4, 1.004);
    const Timed t = time(sb);
    CHECK_FALSE(t.board);
    // One warning for the first beat a line runs past, however many; a hundredth at least.
    CHECK(t.diagnostics ==
          "t.yaml:8:23: error: speech runs 0.4s into the next line (at 3s, line 11), so the "
          "voices would overlap: start that beat `at: after` or shorten this line\n"
          "t.yaml:8:23: warning: speech runs 1.4s past the beat at 2s, line 9, which changes the "
          "picture mid-line\n"
          "t.yaml:12:23: warning: speech runs 0.01s past the beat at 9s, line 13, which changes "
          "the picture mid-line\n");
    speak(sb, 0, 0, 2.9);
    speak(sb, 0, 4, 1.0001);
    story::Diagnostics errors;
    std::vector<story::Diagnostic> warnings;
    const auto board = story::timed(sb, errors, warnings);
    CHECK(board);  // warnings only
    CHECK(errors.empty());
    REQUIRE(warnings.size() == 2);
    CHECK(warnings[0].severity == story::Severity::warning);
    CHECK(warnings[0].format() ==
          "t.yaml:8:23: warning: speech runs 0.9s past the beat at 2s, line 9, which changes the "
          "picture mid-line");
    CHECK(warnings[1].format() ==
          "t.yaml:12:23: warning: speech runs 0.01s past the beat at 9s, line 13, which changes "
          "the picture mid-line");
}

TEST_CASE("silent chapters are never checked for overruns") {
    Storyboard sb = parsed(R"(shardreel: 1
chapters:
  - id: a
    kind: title
    duration: 2s
    beats:
      - {at: 0s, say: A caption far longer than the two seconds this chapter lasts.}
      - {at: 1s, say: Another.}
)");
    story::estimate_speech(sb);
    CHECK(timed_ok(sb).chapters[0].duration == 2);
}

TEST_CASE("timing needs every line's speech") {
    Storyboard sb = parsed(voiced("", "      - {at: 0s, say: Unspoken.}\n"));
    story::Diagnostics errors;
    std::vector<story::Diagnostic> warnings;
    CHECK_THROWS_AS(story::timed(sb, errors, warnings), std::logic_error);
}

TEST_CASE("load_timed estimates without a voice, and a voice's errors stop it") {
    const std::string text = voiced("    duration: auto\n", "      - {at: 0s, say: Spoken.}\n");
    story::Diagnostics errors;
    std::vector<story::Diagnostic> warnings;
    const auto estimated = story::load_timed(text, "t.yaml", errors, warnings);
    REQUIRE(estimated);
    CHECK(estimated->chapters[0].duration == 1 + 0.75);
    int calls = 0;
    const auto spoken = story::load_timed(text, "t.yaml", errors, warnings,
                                          [&](Storyboard& sb, story::Diagnostics&) {
                                              ++calls;
                                              speak(sb, 0, 0, 3);
                                          });
    REQUIRE(spoken);
    CHECK(calls == 1);
    CHECK(spoken->chapters[0].duration == 3.75);
    CHECK_FALSE(story::load_timed(text, "t.yaml", errors, warnings,
                                  [](Storyboard& sb, story::Diagnostics& e) {
                                      e.error(sb.file, {6, 22}, "unknown voice");
                                  }));
    CHECK(errors.format() == "t.yaml:6:22: error: unknown voice\n");
}

TEST_CASE("the film's length counts auto chapters once timed") {
    Storyboard sb = parsed(voiced("    duration: auto\n", "      - {at: 0s, say: Long.}\n") +
                           "  - {id: b, kind: title, duration: 3599s}\n");
    speak(sb, 0, 0, 2);
    CHECK(time(sb).diagnostics ==
          "t.yaml:9:5: error: the chapters add up to 3601.75s, more than the 3600s a film may "
          "last (by the end of chapter 'b')\n");
}

TEST_CASE("check's speech summary: the lines' speech of the chapter's length") {
    Storyboard sb = parsed(voiced("    duration: 34s\n", R"(      - {at: 0s, say: One.}
      - {at: 20s, say: Two.}
      - {at: 32s}
)") + "  - {id: intro, kind: title, narration: off, duration: 4s, beats: [{at: 0s, say: Hi.}]}\n");
    speak(sb, 0, 0, 19.96);
    speak(sb, 0, 1, 11.4);
    story::estimate_speech(sb);
    const Storyboard t = timed_ok(sb);
    CHECK(story::narrated(t));
    CHECK(story::speech_summary(t.chapters[0]) == "chapter 'a': speech 31.4 s of 34.0 s");
    CHECK(story::speech_summary(t.chapters[1]) == "chapter 'intro': narration off, 4.0 s");
    sb.chapters[0].narration.engine = story::VoiceEngine::off;
    CHECK_FALSE(story::narrated(sb));
}
