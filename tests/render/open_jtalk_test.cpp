// Open JTalk (Japanese, through the voice module): the same bytes every time and whatever the
// worker spoke before, levelled, bookmarks where its phones say their words start, no pause for
// the spaces around numbers, wpm, and its errors. Skipped where it is not installed.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "render/voice/open_jtalk_files.hpp"
#include "tests/catch.hpp"
#include "tests/render/cli.hpp"
#include "tests/render/sound.hpp"
#include "tests/render/voice_fixture.hpp"
#include "tests/skip.hpp"

using namespace render_test;
namespace fs = std::filesystem;

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
    check_four_marks_in_order(s, 0.05);  // "mochimasu" still to be said after the last
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
