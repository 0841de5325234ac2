// Narration's speech (render/voice): espeak-ng and Festival speak the same bytes every time,
// bookmarks fall in order inside the speech, wpm sets the pace, every line is trimmed and at
// -16 LUFS, recorded takes are found, decoded and levelled, bad voices and takes are errors at
// their line, and the speech cache serves lines without loading the voice module.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "render/sound/decode/audio_decode.hpp"
#include "render/sys/files.hpp"
#include "render/voice/open_jtalk_files.hpp"
#include "render/voice/speech.hpp"
#include "tests/render/cli.hpp"
#include "tests/render/sound.hpp"
#include "tests/skip.hpp"

using namespace render_test;
namespace fs = std::filesystem;

namespace {

const char* const kLine = "Scale to 70 billion parameters, and the state grows to 1,120 GB.";

story::Narration voice(story::VoiceEngine engine, const std::string& name, int wpm = 0) {
    story::Narration n;
    n.engine = engine;
    n.voice = name;
    n.wpm = wpm;
    n.pos = {3, 12};
    return n;
}

story::Narration recorded(const std::string& takes) {
    story::Narration n = voice(story::VoiceEngine::recorded, "");
    n.takes = takes;
    return n;
}

// One chapter `intro` whose beats say lines (an empty one only animates), the Nth at line 10+2N.
story::Storyboard board(const story::Narration& narration, const std::vector<std::string>& lines,
                        const fs::path& file) {
    story::Storyboard b;
    b.file = file.string();
    story::ChapterSpec chapter;
    chapter.id = "intro";
    chapter.duration = 20;
    chapter.narration = narration;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        story::Beat beat;
        beat.say = lines[i];
        beat.pos = {10 + 2 * static_cast<int>(i), 7};
        chapter.beats.push_back(beat);
    }
    b.chapters.push_back(chapter);
    return b;
}

// Bookmarks the words of the first beat (by their first occurrence).
void mark(story::Storyboard& b, const std::vector<std::string>& words) {
    story::Beat& beat = b.chapters[0].beats[0];
    for (const std::string& w : words) beat.marks.push_back({w, beat.say.find(w)});
}

struct Filled {
    bool ok = false;
    std::string err;
};

Filled fill(story::Storyboard& b, const fs::path& cache) {
    std::ostringstream err;
    const bool ok = render::fill_speech(b, cache.string(), err);
    return {ok, err.str()};
}

const story::Speech& speech(const story::Storyboard& b, std::size_t beat = 0) {
    REQUIRE(b.chapters[0].beats[beat].speech);
    return *b.chapters[0].beats[beat].speech;
}

std::vector<float> pcm(const story::Storyboard& b, const fs::path& cache, std::size_t beat = 0) {
    const auto line = render::speech_line(b.chapters[0].beats[beat], cache.string());
    REQUIRE(line);
    std::vector<float> samples = render::decode_audio(line->path, 1).samples;
    CHECK(samples.size() == static_cast<std::size_t>(std::lround(line->seconds * 48000)));
    return samples;
}

const story::Narration kEspeak = voice(story::VoiceEngine::espeak, "en-us");
const story::Narration kFestival = voice(story::VoiceEngine::festival, "cmu_us_slt_arctic_hts");

}  // namespace

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

namespace {

// A worker speaks one line after another in one process: what the engine keeps from a line must
// not change the next one's sound. lines[2] is spoken alone, then third of four in one worker.
void check_alone_and_after(const story::Narration& n, const std::vector<std::string>& lines) {
    INFO(n.voice);
    const TempDir dir;
    story::Storyboard alone = board(n, {lines[2]}, dir.path / "a.yaml");
    story::Storyboard after = board(n, lines, dir.path / "a.yaml");
    std::ostringstream err;
    REQUIRE(render::fill_speech(alone, (dir.path / "alone").string(), err, 1));
    REQUIRE(render::fill_speech(after, (dir.path / "after").string(), err, 1));
    CHECK(speech(alone, 0) == speech(after, 2));
    CHECK(slurp(dir.path / "alone/speech" / (speech(alone, 0).key + ".f32")) ==
          slurp(dir.path / "after/speech" / (speech(after, 2).key + ".f32")));
}

}  // namespace

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
        REQUIRE(s.marks.size() == 4);
        CHECK(s.marks[0] < 0.1);  // the first word starts the trimmed line
        CHECK(s.marks[0] < s.marks[1]);
        CHECK(s.marks[1] < s.marks[2]);
        CHECK(s.marks[2] < s.marks[3]);
        CHECK(s.marks[3] < s.seconds - 0.3);  // "gigabytes" still to be said
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

TEST_CASE("a recorded take is decoded at 48 kHz, trimmed and levelled", "[voice]") {
    const TempDir dir;
    fs::create_directories(dir.path / "takes");
    // A quiet 44.1 kHz stereo 440 Hz tone, 1 s between half-second silences.
    const auto take =
        concat(concat(silence(0.5, 44100), tone(440, 1.0, 44100, 0.05)), silence(0.5, 44100));
    write_wav(dir.path / "takes/intro-1.wav", 44100, 2, stereo(take));
    story::Storyboard b = board(recorded("takes"), {kLine}, dir.path / "film.yaml");
    mark(b, {"state"});
    const Filled f = fill(b, dir.path / "cache");
    INFO(f.err);
    REQUIRE(f.ok);
    CHECK(speech(b).seconds == Approx(1.06).margin(0.002));  // the tone and 30 ms each side
    const std::vector<float> line = pcm(b, dir.path / "cache");
    CHECK(pitch({line.begin() + 9600, line.end() - 9600}, 48000) == Approx(440).margin(0.5));
    CHECK(lufs(line) == Approx(-16).margin(0.1));
    CHECK(peak_dbfs(line) <= -1 + 1e-4);
    // A take's words are not known: the mark sits at its share of the text.
    const double share =
        static_cast<double>(std::string(kLine).find("state")) / std::string(kLine).size();
    REQUIRE(speech(b).marks.size() == 1);
    CHECK(speech(b).marks[0] == Approx(share * speech(b).seconds));

    // A quiet take with a loud click: the tone reaches -16 LUFS, the click is held at -1 dBFS,
    // and the limiter's dip around it lasts milliseconds, not the take.
    auto clicky = tone(440, 1.0, 48000, 0.01);
    clicky[24000] = 1.0f;
    write_wav(dir.path / "takes/intro-1.wav", 48000, 1, clicky);
    story::Storyboard c = board(recorded("takes"), {kLine}, dir.path / "film.yaml");
    REQUIRE(fill(c, dir.path / "cache").ok);
    CHECK(speech(c).key != speech(b).key);  // the take's bytes are in the key
    const std::vector<float> held = pcm(c, dir.path / "cache");
    CHECK(peak_dbfs(held) == Approx(-1).margin(0.01));
    CHECK(lufs(held) == Approx(-16).margin(0.1));
    const std::size_t click = 24000;  // nothing is trimmed off the front: the tone starts at once
    CHECK(peak_dbfs({held.begin(), held.begin() + click - 960}) ==
          Approx(peak_dbfs({held.end() - 4800, held.end()})).margin(0.1));
}

TEST_CASE("takes are named by the beat's place among all the chapter's beats, or by take:",
          "[voice]") {
    const TempDir dir;
    fs::create_directories(dir.path / "takes");
    write_wav(dir.path / "takes/intro-1.wav", 48000, 1, tone(440, 1.0, 48000, 0.3));
    write_wav(dir.path / "takes/intro-3.flac.wav", 48000, 1, tone(440, 9.0, 48000, 0.3));
    write_wav(dir.path / "takes/intro-3.wav", 48000, 1, tone(440, 2.0, 48000, 0.3));
    write_wav(dir.path / "mine.wav", 48000, 1, tone(440, 3.0, 48000, 0.3));
    story::Storyboard b =
        board(recorded("takes"), {"One.", "", "Three.", "Four."}, dir.path / "film.yaml");
    b.chapters[0].beats[3].take = "mine.wav";
    REQUIRE(fill(b, dir.path / "cache").ok);
    CHECK(speech(b, 0).seconds == Approx(1.0).margin(0.07));
    CHECK_FALSE(b.chapters[0].beats[1].speech);  // it only animates
    CHECK(speech(b, 2).seconds == Approx(2.0).margin(0.07));
    CHECK(speech(b, 3).seconds == Approx(3.0).margin(0.07));
}

TEST_CASE("a take that is missing, ambiguous, unreadable or not audio is an error at its line",
          "[voice]") {
    const TempDir dir;
    fs::create_directories(dir.path / "takes");
    write_text(dir.path / "takes/intro-1.wav", "not a sound\n");
    write_wav(dir.path / "takes/intro-2.wav", 48000, 1, tone(440, 1.0, 48000, 0.3));
    write_wav(dir.path / "takes/intro-2.mp3", 48000, 1, tone(440, 1.0, 48000, 0.3));
    fs::create_directories(dir.path / "takes/intro-4.wav");  // a folder: no bytes to read
    story::Storyboard b = board(recorded("takes"), {"One.", "Two.", "Three.", "Four.", "Five."},
                                dir.path / "film.yaml");
    b.chapters[0].beats[4].take = "takes/gone.wav";
    b.chapters[0].beats[4].take_pos = {18, 13};
    const Filled f = fill(b, dir.path / "cache");
    CHECK_FALSE(f.ok);
    const std::string film = (dir.path / "film.yaml").string();
    const std::string takes = (dir.path / "takes").string();
    CHECK(f.err == film + ":10:7: error: take is not audio: cannot open " + takes +
                       "/intro-1.wav: Invalid data found when processing input\n" +  //
                       film + ":12:7: error: two takes for this line: " + takes +
                       "/intro-2.wav and " + takes +
                       "/intro-2.mp3 (keep one, or name it with `take:`)\n" +  //
                       film + ":14:7: error: no take for this line: expected " + takes +
                       "/intro-3.wav (or .flac, .mp3, .opus, .ogg or .m4a)\n" +  //
                       film + ":16:7: error: cannot read take " + takes +
                       "/intro-4.wav: Is a directory\n" +  //
                       film + ":18:13: error: take " + (dir.path / "takes/gone.wav").string() +
                       " does not exist\n");
    CHECK_FALSE(fs::exists(dir.path / "cache"));  // nothing spoken, nothing stored
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
        CHECK((r.err.find("libespeak-ng.so") != std::string::npos) ==
              (r.err.find("shardreel-voice.so") != std::string::npos));
        return r.err.find("shardreel-voice.so") != std::string::npos;
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

namespace {

const story::Narration kOpenJtalk = voice(story::VoiceEngine::open_jtalk, "nitech-jp-atr503-m001");
// "With data parallelism, every GPU holds the whole model." (a comma's pause before 各)
const char* const kJapanese = "データ並列では、各GPUがモデル全体を持ちます。";

// Whether Open JTalk, its dictionary and kOpenJtalk's voice are installed; when not, skips the
// test (ctest: Skipped), which returns at once.
bool open_jtalk_installed() {
    const bool here = fs::exists(render::voice::kOpenJtalkProgram) &&
                      fs::exists(fs::path(render::voice::kOpenJtalkDictionary) / "sys.dic") &&
                      render::voice::open_jtalk_voices().contains(kOpenJtalk.voice);
    if (!here)
        test_support::skip(
            "Open JTalk is not installed (scripts/deps.sh installs open-jtalk, "
            "open-jtalk-mecab-naist-jdic and hts-voice-nitech-jp-atr503-m001)");
    return here;
}

// The share of the line's 20 ms frames louder than -40 dBFS (RMS): speech, not silence or noise.
double voiced_share(const std::vector<float>& line) {
    const std::size_t frame = 960;
    std::size_t loud = 0, frames = 0;
    for (std::size_t at = 0; at + frame <= line.size(); at += frame, ++frames) {
        double sum = 0;
        for (std::size_t i = at; i < at + frame; ++i) sum += line[i] * line[i];
        loud += 10 * std::log10(sum / frame + 1e-20) > -40;
    }
    return frames ? static_cast<double>(loud) / static_cast<double>(frames) : 0;
}

// The samples of line between from and to seconds.
std::vector<float> between(const std::vector<float>& line, double from, double to) {
    const auto at = [&](double t) {
        return line.begin() + std::clamp<std::ptrdiff_t>(std::lround(t * 48000), 0,
                                                         static_cast<std::ptrdiff_t>(line.size()));
    };
    return {at(from), at(to)};
}

}  // namespace

TEST_CASE("Open JTalk speaks a Japanese line as the same bytes every time, levelled",
          "[voice][may-skip]") {
    if (!open_jtalk_installed()) return;
    const TempDir dir;
    story::Storyboard a = board(kOpenJtalk, {kJapanese}, dir.path / "a.yaml");
    story::Storyboard b = a;
    REQUIRE(fill(a, dir.path / "one").ok);
    REQUIRE(fill(b, dir.path / "two").ok);
    CHECK(speech(a) == speech(b));
    CHECK(slurp(dir.path / "one/speech" / (speech(a).key + ".f32")) ==
          slurp(dir.path / "two/speech" / (speech(b).key + ".f32")));
    CHECK(speech(a).seconds > 3);  // 4.2 s of speech and 2 x 30 ms
    CHECK(speech(a).seconds < 6);
    const std::vector<float> line = pcm(a, dir.path / "one");
    CHECK(lufs(line) == Approx(-16).margin(0.1));
    CHECK(peak_dbfs(line) <= -1 + 1e-4);
    CHECK(voiced_share(line) > 0.7);
}

TEST_CASE("an Open JTalk line's bytes do not depend on the lines its worker spoke before it",
          "[voice][may-skip]") {
    if (!open_jtalk_installed()) return;
    check_alone_and_after(kOpenJtalk, {"パイプラインの各段は、ステップの始めと終わりに待ちます。",
                                       "パラメータ一つにつき十六バイトのメモリが要ります。",
                                       kJapanese, "勾配は、リングを二周して全員に届きます。"});
}

TEST_CASE("Open JTalk's bookmarks fall in order where its phones say their words start",
          "[voice][may-skip]") {
    if (!open_jtalk_installed()) return;
    const TempDir dir;
    story::Storyboard b = board(kOpenJtalk, {kJapanese}, dir.path / "a.yaml");
    mark(b, {"データ", "各", "モデル", "持ち"});
    REQUIRE(fill(b, dir.path / "cache").ok);
    const story::Speech& s = speech(b);
    REQUIRE(s.marks.size() == 4);
    CHECK(s.marks[0] < 0.05);  // the first word starts the trimmed line
    CHECK(s.marks[0] < s.marks[1]);
    CHECK(s.marks[1] < s.marks[2]);
    CHECK(s.marks[2] < s.marks[3]);
    CHECK(s.marks[3] < s.seconds - 0.3);  // "mochimasu" still to be said
    // 各 comes after the comma's pause (silent, whatever its share of the text) and is spoken.
    const std::vector<float> line = pcm(b, dir.path / "cache");
    CHECK(peak_dbfs(between(line, s.marks[1] - 0.2, s.marks[1] - 0.02)) < -40);
    CHECK(peak_dbfs(between(line, s.marks[1], s.marks[1] + 0.3)) > -20);
}

// Open JTalk would read each space as a pause; Japanese text spaces its numbers and Latin words.
TEST_CASE("Open JTalk reads no pause for the spaces around numbers and Latin words",
          "[voice][may-skip]") {
    if (!open_jtalk_installed()) return;
    const TempDir dir;
    story::Storyboard b =
        board(kOpenJtalk,
              {"bf16 の重みが 2 バイト、それに対して計算される勾配がさらに 2 バイト。",
               "bf16の重みが2バイト、それに対して計算される勾配がさらに2バイト。"},
              dir.path / "a.yaml");
    REQUIRE(fill(b, dir.path / "cache").ok);
    CHECK(pcm(b, dir.path / "cache", 0) == pcm(b, dir.path / "cache", 1));
}

TEST_CASE("wpm sets Open JTalk's pace", "[voice][may-skip]") {
    if (!open_jtalk_installed()) return;
    const TempDir dir;
    story::Narration slow = kOpenJtalk, fast = kOpenJtalk;
    slow.wpm = 120;
    fast.wpm = 240;
    story::Storyboard a = board(slow, {kJapanese}, dir.path / "a.yaml");
    story::Storyboard b = board(fast, {kJapanese}, dir.path / "a.yaml");
    REQUIRE(fill(a, dir.path / "cache").ok);
    REQUIRE(fill(b, dir.path / "cache").ok);
    // Twice the words per minute: about two thirds of the time. HTS meets open_jtalk's speed
    // ratio in the whole utterance's length, silence at both ends included, and stretches that
    // silence and the pauses most: of the speech left after trimming, 1.5 times as long (5.2 s
    // against 3.4 s, measured).
    CHECK(speech(a).seconds / speech(b).seconds > 1.3);
    CHECK(speech(a).seconds / speech(b).seconds < 1.8);
}

TEST_CASE("an unknown Open JTalk voice is an error at its narration, and check exits 2",
          "[voice][may-skip]") {
    if (!open_jtalk_installed()) return;
    const TempDir dir;
    story::Storyboard b =
        board(voice(story::VoiceEngine::open_jtalk, "nitech"), {kJapanese}, dir.path / "film.yaml");
    const Filled f = fill(b, dir.path / "cache");
    CHECK_FALSE(f.ok);
    CHECK(f.err == (dir.path / "film.yaml").string() +
                       ":3:12: error: unknown open-jtalk voice 'nitech' (expected "
                       "nitech-jp-atr503-m001) (`shardreel voices` lists them)\n");
    std::ofstream(dir.path / "ja.yaml") << "shardreel: 1\n"
                                           "video: {lang: ja, narration: 'open-jtalk:nitech'}\n"
                                           "chapters:\n"
                                           "  - id: intro\n"
                                           "    kind: title\n"
                                           "    beats: [{at: 0s, say: こんにちは}]\n";
    const CliRun r = run_cli("check ja.yaml", dir.path);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::StartsWith("ja.yaml:2:30: error: unknown open-jtalk voice 'nitech'"));
}

TEST_CASE("a line longer than open_jtalk reads is refused at its say:, exit 2, nothing spoken",
          "[voice][may-skip]") {
    if (!open_jtalk_installed()) return;
    const TempDir dir;
    std::string say;
    for (int i = 0; i < 50; ++i) say += "データ並列。";  // 50 x 18 bytes: 900, spoken
    std::ofstream(dir.path / "ja.yaml")
        << "shardreel: 1\n"
           "video: {lang: ja, narration: "
           "'open-jtalk:nitech-jp-atr503-m001'}\n"
           "chapters:\n"
           "  - id: intro\n"
           "    kind: title\n"
           "    duration: auto\n"
           "    beats: [{at: 0s, say: "
        << say << "}, {at: after, say: " << say << " " << say << "}]\n";
    const CliRun r = run_cli("check ja.yaml", dir.path);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::StartsWith("ja.yaml:7:" + std::to_string(26 + say.size() + 21) +
                                        ": error: Open JTalk reads at most 1022 bytes of a line, "
                                        "and this one has 1800 (spaces left out): split it over "
                                        "two beats"));
    CHECK_FALSE(
        fs::exists(dir.path / "out"));  // nothing spoken into the cache, the first line neither
}
