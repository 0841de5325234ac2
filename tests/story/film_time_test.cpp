// The film time map: chapter starts exact to the frame, caption cues as the caption files have
// always had them, and what is on screen at the boundaries between chapters, beats and cues.
#include "story/time/film_time.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "story/load/timed.hpp"
#include "story/storyboard/time.hpp"
#include "story/time/timeline.hpp"
#include "tests/catch.hpp"

using namespace story;

namespace {

ChapterSpec chapter(const std::string& id, double duration, std::vector<Beat> beats) {
    ChapterSpec spec;
    spec.id = id;
    spec.duration = duration;
    spec.beats = std::move(beats);
    return spec;
}

Beat say(double at, const std::string& text) { return Beat{at, 0, text, {}, {}}; }

// 1.5 s, 0.7 s and 2.25 s: 22.5, 10.5 and 33.75 frames at 15 fps, so 23, 11 and 34.
std::vector<ChapterSpec> three_chapters() {
    return {chapter("a", 1.5, {say(0, "one"), say(0.62, "two"), say(1.2, "")}),
            chapter("b", 0.7, {say(0.1, "three"), say(0.61, "too short"), say(0.63, "four")}),
            chapter("c", 2.25, {say(0, ""), say(2, "five")})};
}

// The caption files' cues as they have always been: each line from its beat to caption_end,
// both snapped to the nearest frame and clipped to its chapter, offset by the frames before it;
// a line shorter than a frame has none.
std::vector<Cue> snapped_cues(const std::vector<ChapterSpec>& chapters, int fps) {
    std::vector<Cue> out;
    int chapter_start = 0;
    for (std::size_t c = 0; c < chapters.size(); ++c) {
        const ChapterSpec& spec = chapters[c];
        const int frames = frame_count(spec.duration, fps);
        for (std::size_t i = 0; i < spec.beats.size(); ++i) {
            const int a = chapter_start + std::min(frames, frame_count(spec.beats[i].at, fps));
            const int b = chapter_start + std::min(frames, frame_count(caption_end(spec, i), fps));
            if (b > a && !spec.beats[i].say.empty()) out.push_back({c, i, a, b, spec.beats[i].say});
        }
        chapter_start += frames;
    }
    return out;
}

// Whether every frame of the film shows the same caption burned in (each chapter's Timeline at
// the frame's time) as the caption files give it (the film's cues).
bool burned_as_filed(const std::vector<ChapterSpec>& chapters, const FilmTime& time) {
    for (std::size_t c = 0; c < chapters.size(); ++c) {
        const Timeline timeline(chapters[c], time.fps());
        for (int f = 0; f < time.chapter(c).frames; ++f) {
            const Cue* burned = timeline.cue_at(time.seconds(f));
            const Cue* filed = time.cue_at(time.chapter(c).start + f);
            if ((burned ? burned->text : "-") != (filed ? filed->text : "-")) return false;
        }
    }
    return true;
}

Storyboard load(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    Diagnostics diags;
    std::vector<Diagnostic> warnings;
    auto board = load_timed(text.str(), path.string(), diags, warnings);
    INFO(format_diagnostics(diags, warnings));
    REQUIRE(board);
    return *board;
}

}  // namespace

TEST_CASE("film time: chapters start on whole frames, never on summed seconds", "[film_time]") {
    const FilmTime time(three_chapters(), 15);
    REQUIRE(time.chapters().size() == 3);
    CHECK(time.chapter(0).start == 0);
    CHECK(time.chapter(0).frames == 23);
    CHECK(time.chapter(1).start == 23);
    CHECK(time.chapter(1).frames == 11);
    CHECK(time.chapter(2).start == 34);
    CHECK(time.chapter(2).frames == 34);
    CHECK(time.frames() == 68);
    // 34 / 15 exactly, not the authored 1.5 + 0.7 = 2.2 s.
    CHECK(time.seconds(time.chapter(2).start) == 34.0 / 15);
    CHECK(time.seconds(time.frames()) == 68.0 / 15);
}

TEST_CASE("film time: beats sit on the nearest frame of their chapter and of the film",
          "[film_time]") {
    const FilmTime time(three_chapters(), 15);
    const auto& b = time.chapter(1).beats;
    REQUIRE(b.size() == 3);
    CHECK((b[0].frame == 2 && b[0].film_frame == 25));  // 0.1 s: 1.5 frames
    CHECK((b[1].frame == 9 && b[1].film_frame == 32));  // 0.61 s: 9.15 frames
    CHECK((b[2].frame == 9 && b[2].film_frame == 32));  // 0.63 s: 9.45 frames
    CHECK(time.chapter(2).beats[1].film_frame == 34 + 30);
}

TEST_CASE("film time: cues run from their beat to the next, and a sub-frame cue is dropped",
          "[film_time]") {
    const FilmTime time(three_chapters(), 15);
    const auto& cues = time.cues();
    REQUIRE(cues.size() == 5);
    CHECK((cues[0].start == 0 && cues[0].end == 9 && cues[0].text == "one"));
    CHECK((cues[1].start == 9 && cues[1].end == 18 && cues[1].text == "two"));  // the silent beat
    CHECK((cues[2].start == 25 && cues[2].end == 32 && cues[2].text == "three"));
    CHECK((cues[3].start == 32 && cues[3].end == 34 && cues[3].text == "four"));  // chapter's end
    CHECK((cues[4].start == 64 && cues[4].end == 68 && cues[4].text == "five"));
    CHECK((cues[3].chapter == 1 && cues[3].beat == 2));
    CHECK(cues == snapped_cues(three_chapters(), 15));
    CHECK(burned_as_filed(three_chapters(), time));
}

TEST_CASE(
    "film time: every shipped storyboard's cues are the ones the caption files had, burned in "
    "alike",
    "[film_time]") {
    for (const auto& entry :
         std::filesystem::directory_iterator(SHARDREEL_SOURCE_DIR "/storyboards")) {
        if (entry.path().extension() != ".yaml") continue;
        const Storyboard board = load(entry.path());
        for (int fps : {10, 15, 24, 25, 30, 60}) {
            INFO(entry.path().filename() << " at " << fps << " fps");
            const FilmTime time(board.chapters, fps);
            CHECK(time.cues() == snapped_cues(board.chapters, fps));
            CHECK(burned_as_filed(board.chapters, time));
            int frames = 0;
            for (const ChapterSpec& c : board.chapters) frames += frame_count(c.duration, fps);
            CHECK(time.frames() == frames);
        }
    }
}

TEST_CASE("film time: lookups at the boundaries", "[film_time]") {
    const FilmTime time(three_chapters(), 15);
    CHECK_FALSE(time.chapter_at(-1));
    CHECK(time.chapter_at(0) == 0u);
    CHECK(time.chapter_at(22) == 0u);
    CHECK(time.chapter_at(23) == 1u);
    CHECK(time.chapter_at(33) == 1u);
    CHECK(time.chapter_at(34) == 2u);
    CHECK(time.chapter_at(67) == 2u);
    CHECK_FALSE(time.chapter_at(68));

    CHECK(time.beat_at(0) == BeatRef{0, 0});
    CHECK(time.beat_at(8) == BeatRef{0, 0});
    CHECK(time.beat_at(9) == BeatRef{0, 1});
    CHECK(time.beat_at(22) == BeatRef{0, 2});
    CHECK_FALSE(time.beat_at(23));  // chapter b's first beat is at its frame 2
    CHECK(time.beat_at(25) == BeatRef{1, 0});
    CHECK(time.beat_at(32) == BeatRef{1, 2});  // two beats on one frame: the later one
    CHECK(time.beat_at(34) == BeatRef{2, 0});
    CHECK_FALSE(time.beat_at(68));

    CHECK(time.cue_at(8)->text == "one");
    CHECK(time.cue_at(9)->text == "two");
    CHECK(time.cue_at(17)->text == "two");
    CHECK(time.cue_at(18) == nullptr);
    CHECK(time.cue_at(24) == nullptr);
    CHECK(time.cue_at(25)->text == "three");
    CHECK(time.cue_at(33)->text == "four");
    CHECK(time.cue_at(34) == nullptr);
    CHECK(time.cue_at(67)->text == "five");
    CHECK(time.cue_at(68) == nullptr);
    CHECK(time.cue_at(-1) == nullptr);
}

TEST_CASE("film time: the frame on screen at a time is the last one begun", "[film_time]") {
    for (int fps : {15, 24, 30, 60}) {
        const FilmTime time(three_chapters(), fps);
        for (int f = 0; f <= time.frames(); ++f) {
            INFO(f << " at " << fps << " fps");
            CHECK(time.frame_at(time.seconds(f)) == f);
            CHECK(time.frame_at(std::nextafter(time.seconds(f), -1.0)) == f - 1);
        }
    }
    const FilmTime time(three_chapters(), 15);
    CHECK(time.frame_at(1.5) == 22);  // 22.5 frames in: frame 22 is on screen, in chapter a
    CHECK(time.chapter_at(time.frame_at(1.55)) == 1u);
    CHECK(time.frame_at(-0.01) == -1);
}

TEST_CASE("film time: an empty storyboard has no frames and nothing on screen", "[film_time]") {
    const FilmTime time({}, 30);
    CHECK(time.frames() == 0);
    CHECK_FALSE(time.chapter_at(0));
    CHECK_FALSE(time.beat_at(0));
    CHECK(time.cue_at(0) == nullptr);
}

namespace {

Beat spoken(double at, const std::string& text, double seconds) {
    Beat b = say(at, text);
    b.speech = Speech{seconds, {}};
    return b;
}

// A 6 s chapter: a line of 1 s at 0 (caption to 1.5 s), a beat that only animates at 1.2 s (no
// cut), a line of 2 s at 2 s cut by the next line at 3 s, and a last line running to the end.
ChapterSpec voiced_chapter(VoiceEngine engine) {
    ChapterSpec spec = chapter("v", 6,
                               {spoken(0, "one", 1), say(1.2, ""), spoken(2, "two", 2),
                                spoken(3, "three", 0.5), spoken(5, "four", 3)});
    spec.narration.engine = engine;
    return spec;
}

}  // namespace

TEST_CASE("film time: a voice's captions run to 0.5 s after its speech, cut at the next line",
          "[film_time]") {
    const ChapterSpec spec = voiced_chapter(VoiceEngine::espeak);
    CHECK(caption_end(spec, 0) == 1.5);  // not cut by the beat at 1.2 s that only animates
    CHECK(caption_end(spec, 2) == 3);    // the next line
    CHECK(caption_end(spec, 3) == 4);
    CHECK(caption_end(spec, 4) == 6);  // the chapter's end
    const FilmTime time({chapter("lead", 1, {}), spec}, 10);
    CHECK(time.cues() == std::vector<Cue>{{1, 0, 10, 25, "one"},
                                          {1, 2, 30, 40, "two"},
                                          {1, 3, 40, 50, "three"},
                                          {1, 4, 60, 70, "four"}});
    // Burned captions are the same cues, on the chapter's own frames.
    CHECK(Timeline(spec, 10).cues() == std::vector<Cue>{{0, 0, 0, 15, "one"},
                                                        {0, 2, 20, 30, "two"},
                                                        {0, 3, 30, 40, "three"},
                                                        {0, 4, 50, 60, "four"}});
}

TEST_CASE("film time: without a voice captions run to the next beat, estimates or not",
          "[film_time]") {
    const ChapterSpec spec = voiced_chapter(VoiceEngine::off);
    CHECK(caption_end(spec, 0) == 1.2);
    CHECK(caption_end(spec, 2) == 3);
    CHECK(caption_end(spec, 4) == 6);
    CHECK(Timeline(spec, 10).cues() == std::vector<Cue>{{0, 0, 0, 12, "one"},
                                                        {0, 2, 20, 30, "two"},
                                                        {0, 3, 30, 50, "three"},
                                                        {0, 4, 50, 60, "four"}});
}
