// A narrated storyboard end to end through `shardreel render`: espeak-ng speaks two lines timed
// by its speech (at: after, duration: auto), two recorded takes (tones made here) speak a third
// chapter, a silent title opens. The MP4 is decoded with libav: speech inside every caption's
// window, silence in the silent chapter, each take's own pitch where its line plays, loudness;
// the same bytes from a fresh cache; one changed line redraws one chapter; a missing take is
// an error at its line that keeps the old film.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iterator>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "render/container/video_probe.hpp"
#include "render/sound/decode/audio_decode.hpp"
#include "tests/catch.hpp"
#include "tests/render/cli.hpp"
#include "tests/render/sounds.hpp"

namespace fs = std::filesystem;
using render_test::q;
using render_test::run_cli;
using render_test::slurp;
using render_test::TempDir;

namespace {

constexpr double kRate = 48000;

const char* kStoryboard = R"(shardreel: 1
title: Spoken
video: {size: 320x180, fps: 15, theme: dark, narration: "espeak-ng:en-us"}
defaults: {model: 7B}
chapters:
  - id: intro
    kind: title
    duration: 2s
    title: Spoken
    narration: off
    beats:
      - {at: 0s, say: Silent.}
  - id: bytes
    kind: bytes_per_parameter
    duration: auto
    fit: stretch
    beats:
      - at: after
        say: Every parameter costs sixteen bytes.
      - at: after
        set: {precision: fp8}
        over: 1s
        say: In fp8 the weights take one byte each.
  - id: takes
    kind: title
    title: Takes
    duration: auto
    narration: {voice: recorded, takes: takes}
    beats:
      - {at: after, say: The first take.}
      - {at: after, say: The second take.}
)";

// The take of line n of chapter "takes": a tone of its own pitch.
const double kTakeHz[] = {440, 880};

void write_inputs(const fs::path& dir, const std::string& storyboard = kStoryboard) {
    render_test::write_text(dir / "spoken.yaml", storyboard);
    fs::create_directories(dir / "takes");
    for (int n = 1; n <= 2; ++n) {
        render_test::write_wav(dir / "takes" / ("takes-" + std::to_string(n) + ".wav"),
                               render_test::tone(1.2, kTakeHz[n - 1], 0.3), 1, 48000);
    }
}

struct Cue {
    double start, end;
};

double seconds(const std::smatch& m, int at) {
    return std::stoi(m[at]) * 3600 + std::stoi(m[at + 1]) * 60 + std::stoi(m[at + 2]) +
           std::stoi(m[at + 3]) / 1000.0;
}

// The caption cues of the .srt beside a film: each line's start and its end (0.5 s after its
// speech where nothing cuts it).
std::vector<Cue> cues(const fs::path& srt) {
    const std::string text = slurp(srt);
    const std::regex time(R"((\d+):(\d+):(\d+),(\d+) --> (\d+):(\d+):(\d+),(\d+))");
    std::vector<Cue> out;
    for (std::sregex_iterator it(text.begin(), text.end(), time), end; it != end; ++it)
        out.push_back({seconds(*it, 1), seconds(*it, 5)});
    return out;
}

std::int64_t at(double s) { return static_cast<std::int64_t>(s * kRate); }
double db(double rms) { return 20 * std::log10(std::max(rms, 1e-12)); }

// The left channel's pitch over [from, to) s, from its rising zero crossings.
double pitch(const std::vector<float>& stereo, double from, double to) {
    int rising = 0;
    for (std::int64_t i = at(from) + 1; i < at(to); ++i)
        rising += stereo[2 * (i - 1)] < 0 && stereo[2 * i] >= 0;
    return rising / (to - from);
}

nlohmann::json render_json(const fs::path& dir, const std::string& out, const std::string& cache) {
    const auto run = run_cli("render spoken.yaml -o " + out + " --cache " + cache + " --json", dir);
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    return nlohmann::json::parse(run.out);
}

std::map<std::string, std::pair<bool, bool>> cached(const nlohmann::json& report) {
    std::map<std::string, std::pair<bool, bool>> out;
    for (const auto& c : report["chapters"])
        out[c["id"]] = {c["cached"].get<bool>(), c["audio_cached"].get<bool>()};
    return out;
}

}  // namespace

TEST_CASE("a narrated film: its voice in every line's window, its takes, its loudness", "[sound]") {
    TempDir dir;
    write_inputs(dir.path);
    const nlohmann::json report = render_json(dir.path, "film.mp4", "cache");
    const fs::path film = dir.path / "film.mp4";

    const render::AudioProbe sound = render::probe_audio(film.string());
    CHECK(sound.codec == "aac");
    CHECK(sound.channels == 2);
    CHECK(sound.sample_rate == 48000);
    const render::VideoInfo video = render::probe_video(film.string());
    CHECK(sound.seconds == Approx(video.duration_seconds).margin(1e-3));
    CHECK(report["audio"]["lufs"].get<double>() == Approx(-16).margin(1));
    CHECK(report["audio"]["true_peak_db"].get<double>() <= -1);

    const std::vector<Cue> lines = cues(dir.path / "film.srt");
    REQUIRE(lines.size() == 5);  // the silent title's caption, then four spoken lines
    const std::vector<float> pcm = render_test::decode_stereo(film);
    CHECK(db(render_test::rms(pcm, at(0.1), at(lines[1].start - 0.1))) < -60);
    for (std::size_t i = 1; i < lines.size(); ++i) {
        INFO("line " << i << " from " << lines[i].start << " s to " << lines[i].end << " s");
        // at: after: each line starts its chapter's gap (0.35 s) after the one before ends.
        CHECK(lines[i].end - lines[i].start > 1);
        CHECK(db(render_test::rms(pcm, at(lines[i].start + 0.1), at(lines[i].end - 0.6))) > -35);
    }
    // The takes chapter speaks its two tones, each in its own line.
    CHECK(pitch(pcm, lines[3].start + 0.2, lines[3].start + 1.0) == Approx(440).margin(10));
    CHECK(pitch(pcm, lines[4].start + 0.2, lines[4].start + 1.0) == Approx(880).margin(10));

    // A fresh cache speaks and renders the same bytes; so does --no-cache, leaving no cache.
    render_json(dir.path, "again.mp4", "cache2");
    CHECK(slurp(dir.path / "again.mp4") == slurp(film));
    const auto run = run_cli("render spoken.yaml -o bare/film.mp4 --no-cache", dir.path);
    REQUIRE(run.exit_code == 0);
    CHECK(slurp(dir.path / "bare/film.mp4") == slurp(film));
    std::set<std::string> left;
    for (const auto& e : fs::directory_iterator(dir.path / "bare"))
        left.insert(e.path().filename());
    CHECK(left == std::set<std::string>{"film.mp4", "film.srt", "film.vtt"});
}

TEST_CASE("changing one line redraws its chapter only, and a missing take keeps the old film",
          "[sound]") {
    TempDir dir;
    write_inputs(dir.path);
    render_json(dir.path, "film.mp4", "cache");
    std::string changed = kStoryboard;
    changed.replace(changed.find("the weights take one byte each"), 30,
                    "each weight takes one byte");
    render_test::write_text(dir.path / "spoken.yaml", changed);
    const nlohmann::json report = render_json(dir.path, "film.mp4", "cache");
    // Pictures: only the changed chapter is drawn again. Sound: the intro's segment, whose
    // window ends inside the unchanged first line, is reused; the changed chapter's is encoded
    // again, and so is every later one whose start moved on the AAC frame grid
    // (docs/commands/voices.md, Sound).
    const auto state = cached(report);
    CHECK(state.at("intro") == std::pair{true, true});
    CHECK(state.at("bytes") == std::pair{false, false});
    CHECK(state.at("takes").first);

    const std::string before = slurp(dir.path / "film.mp4");
    fs::remove(dir.path / "takes" / "takes-2.wav");
    const auto run = run_cli("render spoken.yaml -o film.mp4 --cache cache", dir.path);
    CHECK(run.exit_code == 2);
    CHECK(std::regex_search(run.err, std::regex("spoken\\.yaml:31:9: error: no take for this line: "
                                                "expected .*takes/takes-2\\.wav")));
    CHECK(slurp(dir.path / "film.mp4") == before);
}

TEST_CASE("pruning the cache removes lines no film speaks any more, never the film's own",
          "[sound]") {
    TempDir dir;
    write_inputs(dir.path);
    render_json(dir.path, "film.mp4", "cache");
    const auto lines = [&] {
        std::set<std::string> out;
        for (const auto& e : fs::directory_iterator(dir.path / "cache" / "speech"))
            if (e.path().extension() == ".f32") out.insert(e.path().stem().string());
        return out;
    };
    const std::set<std::string> before = lines();
    CHECK(before.size() == 4);  // two spoken lines, two takes
    std::string changed = kStoryboard;
    changed.replace(changed.find("sixteen bytes"), 13, "16 bytes of state");
    render_test::write_text(dir.path / "spoken.yaml", changed);
    const auto run =
        run_cli("render spoken.yaml -o film.mp4 --cache cache --cache-limit 1B", dir.path);
    REQUIRE(run.exit_code == 0);
    const std::set<std::string> after = lines();
    CHECK(after.size() == 4);
    std::vector<std::string> kept;
    std::set_intersection(before.begin(), before.end(), after.begin(), after.end(),
                          std::back_inserter(kept));
    CHECK(kept.size() == 3);  // the reworded line's old speech is gone, with its record
    for (const std::string& key : after)
        CHECK(fs::exists(dir.path / "cache/speech" / (key + ".json")));
    for (const std::string& key : before)
        if (!after.count(key)) CHECK_FALSE(fs::exists(dir.path / "cache/speech" / (key + ".json")));
}

TEST_CASE("rendering some chapters (--only) speaks their lines, no others", "[sound]") {
    TempDir dir;
    write_inputs(dir.path);
    const auto run = run_cli("render spoken.yaml --only takes -o film.mp4 --cache cache", dir.path);
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    int lines = 0;
    for (const auto& e : fs::directory_iterator(dir.path / "cache" / "speech"))
        lines += e.path().extension() == ".f32";
    CHECK(lines == 2);  // the two takes; espeak-ng's two lines in 'bytes' are not spoken
    const auto wrong =
        run_cli("render spoken.yaml --only take -o film.mp4 --cache cache", dir.path);
    CHECK(wrong.exit_code == 2);
    CHECK(wrong.err ==
          "shardreel: error: no chapter 'take' in spoken.yaml (did you mean 'takes'?)\n");
}

TEST_CASE("a German film is spoken by espeak-ng, the English voice being Festival's", "[sound]") {
    TempDir dir;
    render_test::write_text(dir.path / "spoken.yaml", R"(shardreel: 1
title: {en: Spoken, de: Gesprochen}
video: {size: 320x180, fps: 15, theme: dark, narration: "festival:cmu_us_slt_arctic_hts"}
languages: [en, de]
defaults: {model: 7B}
chapters:
  - id: bytes
    kind: bytes_per_parameter
    duration: auto
    title: {en: Bytes, de: Bytes}
    beats:
      - at: after
        say: {en: Every parameter costs sixteen bytes., de: Jeder Parameter kostet sechzehn Bytes.}
      - at: after
        say: {en: In fp8 a weight takes one byte., de: In fp8 braucht ein Gewicht ein Byte.}
)");
    const auto run = run_cli("render spoken.yaml --lang de --cache cache --quiet", dir.path);
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    const fs::path film = dir.path / "out/spoken.de.mp4";
    const std::vector<Cue> lines = cues(dir.path / "out/spoken.de.srt");
    REQUIRE(lines.size() == 2);
    const std::vector<float> pcm = render_test::decode_stereo(film);
    CHECK(db(render_test::rms(pcm, at(0.05), at(lines[0].start - 0.05))) < -60);
    for (const Cue& line : lines) {
        INFO("line from " << line.start << " s to " << line.end << " s");
        CHECK(line.end - line.start > 1);
        CHECK(db(render_test::rms(pcm, at(line.start + 0.1), at(line.end - 0.6))) > -35);
    }
    // The speech cache holds espeak-ng's German lines, and no Festival line was spoken.
    std::multiset<std::string> spoken;  // engine: text, of every record
    for (const auto& e : fs::directory_iterator(dir.path / "cache/speech")) {
        if (e.path().extension() != ".json") continue;
        const auto inputs = nlohmann::json::parse(slurp(e.path()))["inputs"];
        spoken.insert(inputs["engine"].get<std::string>() + ": " +
                      inputs["text"].get<std::string>());
    }
    CHECK(spoken == std::multiset<std::string>{"espeak-ng: Jeder Parameter kostet sechzehn Bytes.",
                                               "espeak-ng: In fp8 braucht ein Gewicht ein Byte."});
}

namespace {

// The processes whose command line names `word` and are still running (not zombies).
std::vector<std::string> running_with(const std::string& word) {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator("/proc")) {
        const std::string pid = e.path().filename().string();
        if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
        std::string cmdline = slurp(e.path() / "cmdline"), stat = slurp(e.path() / "stat");
        const auto state = stat.find(") ");
        if (cmdline.find(word) != std::string::npos && state != std::string::npos &&
            stat[state + 2] != 'Z')
            out.push_back(pid);
    }
    return out;
}

}  // namespace

TEST_CASE("SIGTERM while the lines are spoken exits 130 and leaves no speaker behind", "[sound]") {
    TempDir dir;
    std::string beats;
    for (int i = 0; i < 12; ++i)
        beats += "      - {at: " + std::string(i ? "after" : "0s") + ", say: Line number " +
                 std::to_string(i + 1) + " of twelve is spoken slowly enough to stop.}\n";
    render_test::write_text(dir.path / "twelve.yaml",
                            "shardreel: 1\n"
                            "video: {size: 320x180, fps: 10, narration: "
                            "\"festival:cmu_us_slt_arctic_hts\"}\n"
                            "chapters:\n"
                            "  - id: intro\n"
                            "    kind: title\n"
                            "    duration: auto\n"
                            "    beats:\n" +
                                beats);
    const fs::path board = dir.path / "twelve.yaml", speech = dir.path / "cache/speech";
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        execl(SHARDREEL_BINARY, "shardreel", "render", board.c_str(), "-q", "--cache",
              (dir.path / "cache").c_str(), "-o", (dir.path / "t.mp4").c_str(),
              static_cast<char*>(nullptr));
        _exit(127);
    }
    // A line is in the cache: the speaker is mid-way.
    REQUIRE(render_test::file_appears(
        speech, [](const std::string& f) { return f.ends_with(".json"); }, 15000));
    kill(pid, SIGTERM);
    int status = 0;
    waitpid(pid, &status, 0);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 130);
    CHECK_FALSE(fs::exists(dir.path / "t.mp4"));
    std::vector<std::string> left = running_with(board.string());
    for (int i = 0; i < 200 && !left.empty(); ++i) {
        usleep(10000);
        left = running_with(board.string());
    }
    CHECK(left.empty());
}

TEST_CASE("pronounce gives the voice its readings while the captions keep the words", "[sound]") {
    TempDir dir;
    const std::string film = R"(shardreel: 1
video: {size: 320x180, fps: 10, narration: {voice: "espeak-ng:en-us", pronounce: {en: {ZeRO: zero redundancy}}}}
chapters:
  - id: intro
    kind: title
    duration: auto
    beats:
      - {at: 0s, say: "ZeRO shards the optimizer."}
      - {at: after, say: ZeROs stay as written.}
)";
    render_test::write_text(dir.path / "said.yaml", film);
    const auto run = run_cli("render said.yaml -q --cache cache -o said.mp4", dir.path);
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    std::set<std::string> texts;
    for (const auto& e : fs::directory_iterator(dir.path / "cache/speech"))
        if (e.path().extension() == ".json")
            texts.insert(nlohmann::json::parse(slurp(e.path())).at("inputs").at("text"));
    CHECK(texts ==
          std::set<std::string>{"zero redundancy shards the optimizer.", "ZeROs stay as written."});
    CHECK(render_test::has_line(slurp(dir.path / "said.vtt"), "ZeRO shards the optimizer."));
}
