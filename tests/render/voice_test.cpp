// Narration's speech (render/voice) by espeak-ng and Festival: the same bytes every time and
// whatever the worker spoke before, bookmarks in order inside the speech, wpm sets the pace, every
// line trimmed and at -16 LUFS; bad voices are errors at their narration, the speech cache serves
// lines without loading the voice module, and `voices` lists them. Recorded takes:
// takes_test.cpp; Open JTalk: open_jtalk_test.cpp.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "render/sys/files.hpp"
#include "render/voice/speech.hpp"
#include "tests/catch.hpp"
#include "tests/render/cli.hpp"
#include "tests/render/sound.hpp"
#include "tests/render/voice_fixture.hpp"

using namespace render_test;
namespace fs = std::filesystem;

TEST_CASE("espeak-ng and Festival speak a line as the same bytes every time", "[voice]") {
    for (const story::Narration& n : {kEspeak, kFestival}) {
        INFO(n.voice);
        const TempDir dir;
        story::Storyboard a = board(n, {kLine}, dir.path / "a.yaml");
        story::Storyboard b = a;
        REQUIRE(fill(a, dir.path / "one").ok);
        REQUIRE(fill(b, dir.path / "two").ok);
        CHECK(speech(a) == speech(b));
        CHECK(speech(a).seconds > 3);  // the line takes a few seconds to say
        CHECK(speech(a).seconds < 8);
        const auto line = render::speech_line(a.chapters[0].beats[0], (dir.path / "one").string());
        REQUIRE(line);
        CHECK(line->path == (dir.path / "one/speech" / (speech(a).key + ".f32")).string());
        CHECK(slurp(line->path) == slurp(dir.path / "two/speech" / (speech(a).key + ".f32")));
        CHECK(pcm(a, dir.path / "one").size() ==
              static_cast<std::size_t>(std::lround(speech(a).seconds * 48000)));
        CHECK_FALSE(has_temp_files(dir.path));
    }
}

TEST_CASE("lines spoken side by side are the bytes spoken one after another", "[voice]") {
    for (const story::Narration& n : {kEspeak, kFestival}) {
        INFO(n.voice);
        const TempDir dir;
        const std::vector<std::string> lines = {kLine, "Two cards hold the weights.", "", "Yes.",
                                                "Every parameter costs memory three times over."};
        story::Storyboard one = board(n, lines, dir.path / "a.yaml");
        story::Storyboard two = one;
        std::ostringstream err;
        REQUIRE(render::fill_speech(one, (dir.path / "one").string(), err, 1));
        REQUIRE(render::fill_speech(two, (dir.path / "two").string(), err, 2));
        for (std::size_t i : {0, 1, 3, 4}) {
            CHECK(speech(one, i) == speech(two, i));
            CHECK(slurp(dir.path / "one/speech" / (speech(one, i).key + ".f32")) ==
                  slurp(dir.path / "two/speech" / (speech(two, i).key + ".f32")));
        }
    }
}

TEST_CASE("a line's bytes do not depend on the lines its worker spoke before it", "[voice]") {
    for (const story::Narration& n : {kEspeak, kFestival}) {
        check_alone_and_after(
            n,
            {"Slowly, the second card holds the gradients while the first one waits for them.",
             "Every parameter costs memory three times over while the model is being trained.",
             kLine, "Pipeline stages wait for each other at the start and at the end of a step."});
    }
}

TEST_CASE("bookmarks fall in order inside the speech, where their words are", "[voice]") {
    for (const story::Narration& n : {kEspeak, kFestival}) {
        INFO(n.voice);
        const TempDir dir;
        story::Storyboard b = board(n, {kLine}, dir.path / "a.yaml");
        mark(b, {"Scale", "70", "state", "GB"});
        REQUIRE(fill(b, dir.path / "cache").ok);
        const story::Speech& s = speech(b);
        check_four_marks_in_order(s, 0.1);  // "gigabytes" still to be said after the last
        // "70 billion parameters, and the" lies between marks 1 and 2: a second or more.
        CHECK(s.marks[2] - s.marks[1] > 1.0);
        // A hit gives the same times back.
        story::Storyboard again = board(n, {kLine}, dir.path / "a.yaml");
        mark(again, {"Scale", "70", "state", "GB"});
        REQUIRE(fill(again, dir.path / "cache").ok);
        CHECK(speech(again) == s);
    }
}

TEST_CASE("wpm sets the pace of both engines", "[voice]") {
    for (const story::Narration& n : {kEspeak, kFestival}) {
        INFO(n.voice);
        const TempDir dir;
        story::Narration slow = n, fast = n;
        slow.wpm = 120;
        fast.wpm = 240;
        story::Storyboard a = board(slow, {kLine}, dir.path / "a.yaml");
        story::Storyboard b = board(fast, {kLine}, dir.path / "a.yaml");
        REQUIRE(fill(a, dir.path / "cache").ok);
        REQUIRE(fill(b, dir.path / "cache").ok);
        CHECK(speech(a).key != speech(b).key);
        // Twice the words per minute: about half the time (pauses scale less).
        CHECK(speech(a).seconds / speech(b).seconds > 1.6);
        CHECK(speech(a).seconds / speech(b).seconds < 2.4);
    }
}

TEST_CASE("every spoken line is trimmed to 30 ms of silence and levelled to -16 LUFS", "[voice]") {
    for (const story::Narration& n : {kEspeak, kFestival}) {
        INFO(n.voice);
        const TempDir dir;
        story::Storyboard b = board(n, {kLine, "Yes."}, dir.path / "a.yaml");
        REQUIRE(fill(b, dir.path / "cache").ok);
        const std::vector<float> line = pcm(b, dir.path / "cache");
        CHECK(lufs(line) == Approx(-16).margin(0.1));
        CHECK(peak_dbfs(line) <= -1 + 1e-4);
        // 30 ms (1440 samples) of what was silence, then the first sound of the speech; the
        // same at the end.
        CHECK(peak_dbfs({line.begin(), line.begin() + 1440}) <
              20 * std::log10(std::abs(line[1440])));
        const std::size_t end = line.size() - 1441;
        CHECK(peak_dbfs({line.end() - 1440, line.end()}) < 20 * std::log10(std::abs(line[end])));
        // A line under 0.4 s of speech has no gating block; it is levelled all the same.
        const std::vector<float> yes = pcm(b, dir.path / "cache", 1);
        CHECK(peak_dbfs(yes) > -12);
    }
}

TEST_CASE("an unknown voice is an error at its narration, with the voices and a did-you-mean",
          "[voice]") {
    const TempDir dir;
    story::Storyboard b = board(voice(story::VoiceEngine::espeak, "en-uss"), {"One.", "Two."},
                                dir.path / "film.yaml");
    b.chapters.push_back(b.chapters[0]);  // a second chapter with the film's voice
    b.chapters[1].id = "more";
    Filled f = fill(b, dir.path / "cache");
    CHECK_FALSE(f.ok);
    const std::string film = (dir.path / "film.yaml").string();
    CHECK_THAT(f.err, Catch::StartsWith(film + ":3:12: error: unknown espeak-ng voice 'en-uss' "
                                               "(did you mean 'en-us'?); voices: af, am, an, "));
    CHECK_THAT(f.err, Catch::Contains(", en-gb, ") && Catch::Contains(", fr, "));
    CHECK(std::count(f.err.begin(), f.err.end(), '\n') == 1);  // once for both chapters
    CHECK_FALSE(fs::exists(dir.path / "cache"));

    story::Storyboard c =
        board(voice(story::VoiceEngine::festival, "slt"), {"One."}, dir.path / "film.yaml");
    f = fill(c, dir.path / "cache");
    CHECK_FALSE(f.ok);
    CHECK(f.err == film +
                       ":3:12: error: unknown festival voice 'slt' (expected "
                       "cmu_us_slt_arctic_hts) (`shardreel voices` lists them)\n");
}

TEST_CASE("a damaged speech cache entry is spoken again", "[voice]") {
    const TempDir dir;
    story::Storyboard b = board(kEspeak, {kLine}, dir.path / "film.yaml");
    REQUIRE(fill(b, dir.path / "cache").ok);
    const auto line = render::speech_line(b.chapters[0].beats[0], (dir.path / "cache").string());
    REQUIRE(line);
    const std::string bytes = slurp(line->path);
    write_text(line->path, bytes.substr(0, bytes.size() / 2));
    story::Storyboard again = board(kEspeak, {kLine}, dir.path / "film.yaml");
    REQUIRE(fill(again, dir.path / "cache").ok);
    CHECK(speech(again) == speech(b));
    CHECK(slurp(line->path) == bytes);
}

TEST_CASE("beats without a voice are left for the reading-time estimate", "[voice]") {
    const TempDir dir;
    story::Storyboard b = board(story::Narration{}, {kLine}, dir.path / "film.yaml");
    REQUIRE(fill(b, dir.path / "cache").ok);
    CHECK_FALSE(b.chapters[0].beats[0].speech);
    CHECK_FALSE(render::speech_line(b.chapters[0].beats[0], (dir.path / "cache").string()));
    CHECK_FALSE(fs::exists(dir.path / "cache"));
}

// Run by the next test in a child process: fills the speech of one espeak-ng line (or, with
// SHARDREEL_VOICE_CHILD_OFF set, of a film without narration) against the given cache.
TEST_CASE("fill_speech in a child process", "[.child]") {
    const char* cache = std::getenv("SHARDREEL_VOICE_CHILD_CACHE");
    REQUIRE(cache);
    const bool off = std::getenv("SHARDREEL_VOICE_CHILD_OFF") != nullptr;
    story::Storyboard b = board(off ? story::Narration{} : kEspeak, {kLine}, "film.yaml");
    REQUIRE(fill(b, cache).ok);
    REQUIRE(b.chapters[0].beats[0].speech.has_value() != off);
}

TEST_CASE("a speech cache hit, or a film without narration, never loads the voice module",
          "[voice]") {
    const TempDir dir;
    // Whether the child's dynamic loader mapped the module (LD_DEBUG=libs logs every library).
    const auto loads_module = [&](const std::string& env) {
        const CliRun r = run_shell(env + " SHARDREEL_VOICE_CHILD_CACHE=" + q(dir.path / "cache") +
                                   " LD_DEBUG=libs " + q(render::running_binary()) +
                                   " 'fill_speech in a child process'");
        INFO(r.out << r.err.substr(0, 2000));
        REQUIRE(r.exit_code == 0);
        CHECK(render_test::initialised(r.err, "libespeak-ng.so") ==
              render_test::initialised(r.err, "shardreel-voice.so"));
        return render_test::initialised(r.err, "shardreel-voice.so");
    };
    CHECK(loads_module(""));  // the first time, the line is spoken
    CHECK_FALSE(loads_module(""));
    CHECK_FALSE(loads_module("SHARDREEL_VOICE_CHILD_OFF=1"));
}

TEST_CASE("shardreel voices lists every voice as narration: names it", "[voice]") {
    const CliRun all = run_cli("voices");
    CHECK(all.exit_code == 0);
    CHECK_THAT(all.out, Catch::StartsWith("espeak-ng:af\n") &&
                            Catch::Contains("\nespeak-ng:en-us\n") &&
                            Catch::Contains("\nfestival:cmu_us_slt_arctic_hts\n"));
    const CliRun festival = run_cli("voices festival");
    CHECK(festival.exit_code == 0);
    CHECK(festival.out == "festival:cmu_us_slt_arctic_hts\n");
    const CliRun wrong = run_cli("voices festvial");
    CHECK(wrong.exit_code == 2);
    CHECK(wrong.err == "shardreel: error: unknown engine 'festvial' (did you mean 'festival'?)\n");
    CHECK(wrong.out.empty());
}

TEST_CASE("without its voice module, speaking fails with exit 1 and names the module", "[voice]") {
    const TempDir dir;
    const auto lone = dir.path / "shardreel";  // the binary alone: no shardreel-voice.so beside it
    fs::copy_file(SHARDREEL_BINARY, lone);
    const CliRun r = run_shell(q(lone) + " voices", dir.path);
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.err, Catch::StartsWith("shardreel: error: cannot load the voice module " +
                                        (dir.path / "shardreel-voice.so").string() + ": "));
}
