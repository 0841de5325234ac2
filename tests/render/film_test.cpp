// `shardreel render` and `still` end to end: the MP4 read back with libavformat, captions beside
// it, identical bytes from identical input, stills equal to the video's frames, exit codes.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "render/container/video_probe.hpp"
#include "tests/catch.hpp"
#include "tests/render/cli.hpp"
#include "tests/render/pixels.hpp"

namespace fs = std::filesystem;
using render_test::mean_abs_diff;
using render_test::q;
using render_test::run_cli;
using render_test::slurp;
using render_test::TempDir;

namespace {

const std::string kShort = render_test::short_film().string();

}  // namespace

TEST_CASE("render writes an H.264 MP4 whose metadata reads back as the storyboard says", "[film]") {
    TempDir dir;
    const auto run =
        run_cli("render " + q(kShort) + " -o " + q(dir.path / "short.mp4") + " --json");
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    const auto report = nlohmann::json::parse(run.out);
    CHECK(report["frames_drawn"] == 15 + 23);  // 1 s and 1.5 s at 15 fps (22.5 rounds to 23)
    CHECK(report["chapters"].size() == 2);
    CHECK(report["chapters"][1]["id"] == "bytes");
    CHECK(report["chapters"][1]["frames"] == 23);

    const render::VideoInfo info = render::probe_video((dir.path / "short.mp4").string());
    CHECK(info.codec == "h264");
    CHECK(info.width == 480);
    CHECK(info.height == 270);
    CHECK(info.pix_fmt == "yuv420p");
    CHECK(info.colorspace == "bt709");
    CHECK(info.color_primaries == "bt709");
    CHECK(info.fps_num == 15);
    CHECK(info.fps_den == 1);
    CHECK(info.frame_count == 38);
    CHECK(info.duration_seconds == Approx(38 / 15.0));
}

TEST_CASE("render writes WebVTT and SRT captions timed to the frame", "[film]") {
    TempDir dir;
    REQUIRE(run_cli("render " + q(kShort) + " -o " + q(dir.path / "short.mp4") + " -q").exit_code ==
            0);
    CHECK(slurp(dir.path / "short.vtt") ==
          "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nA title card.\n"
          "\n00:00:01.000 --> 00:00:01.600\nSixteen bytes each.\n"
          "\n00:00:01.600 --> 00:00:02.533\nThen fifteen.\n");
    CHECK(slurp(dir.path / "short.srt") ==
          "1\n00:00:00,000 --> 00:00:01,000\nA title card.\n"
          "\n2\n00:00:01,000 --> 00:00:01,600\nSixteen bytes each.\n"
          "\n3\n00:00:01,600 --> 00:00:02,533\nThen fifteen.\n");
}

TEST_CASE("rendering twice gives identical bytes", "[film]") {
    TempDir dir;
    REQUIRE(run_cli("render " + q(kShort) + " -o " + q(dir.path / "a.mp4") + " -q").exit_code == 0);
    REQUIRE(run_cli("render " + q(kShort) + " -o " + q(dir.path / "b.mp4") + " -q").exit_code == 0);
    CHECK(slurp(dir.path / "a.mp4") == slurp(dir.path / "b.mp4"));
}

TEST_CASE("a still at time t equals the video's frame at t", "[film]") {
    TempDir dir;
    const fs::path mp4 = dir.path / "short.mp4";
    REQUIRE(run_cli("render " + q(kShort) + " -o " + q(mp4) + " -q").exit_code == 0);
    // Frame 15 + 9 is bytes@9f: mid-morph, so a wrong time would show different numbers.
    for (const auto& [at, frame] :
         {std::pair<std::string, int>{"intro@7f", 7}, {"bytes@9f", 24}, {"bytes@end", 37}}) {
        INFO(at);
        const fs::path png = dir.path / "still.png";
        REQUIRE(run_cli("still " + q(kShort) + " --at " + at + " -o " + q(png)).exit_code == 0);
        const auto rgb = render::decode_frame_rgb(mp4.string(), frame);
        CHECK(mean_abs_diff(png, rgb, 480, 270) < 2.5);
        if (frame != 37) continue;  // and a neighbouring frame is measurably different
        CHECK(mean_abs_diff(png, render::decode_frame_rgb(mp4.string(), 20), 480, 270) > 2.5);
    }
}

TEST_CASE("render --only renders the named chapters, and an unknown id is a usage error",
          "[film]") {
    TempDir dir;
    const auto only =
        run_cli("render " + q(kShort) + " --only bytes -o " + q(dir.path / "b.mp4") + " --json");
    REQUIRE(only.exit_code == 0);
    CHECK(render::probe_video((dir.path / "b.mp4").string()).frame_count == 23);
    const auto bad = run_cli("render " + q(kShort) + " --only byts -o " + q(dir.path / "x.mp4"));
    CHECK(bad.exit_code == 2);
    CHECK(bad.err ==
          "shardreel: error: no chapter 'byts' in " + kShort + " (did you mean 'bytes'?)\n");
    CHECK(!fs::exists(dir.path / "x.mp4"));
}

TEST_CASE("bad input exits 2 and writes nothing", "[film]") {
    TempDir dir;
    const std::string out = " -o " + q(dir.path / "x.mp4");
    CHECK(run_cli("render " + q(dir.path / "missing.yaml") + out).exit_code == 2);
    CHECK(run_cli("render " + q(kShort) + " --quality ultra" + out).exit_code == 2);
    CHECK(run_cli("render " + q(kShort) + " --size 481x270" + out).exit_code == 2);
    CHECK(run_cli("render " + q(kShort) + " --fps 500" + out).exit_code == 2);
    CHECK(run_cli("still " + q(kShort) + " --at bytes@9s -o " + q(dir.path / "x.png")).exit_code ==
          2);
    CHECK(run_cli("still " + q(kShort) + " --at nope@1f -o " + q(dir.path / "x.png")).exit_code ==
          2);
    CHECK(run_cli("still " + q(kShort) + " --at bytes@1f -o " + q(dir.path / "x.gif")).exit_code ==
          2);
    CHECK(run_cli("render --no-such-flag").exit_code == 2);
    CHECK(fs::is_empty(dir.path));
}

TEST_CASE("SIGINT during a render exits 130 and leaves no output", "[film]") {
    TempDir dir;
    const fs::path out = dir.path / "long.mp4";
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        execl(SHARDREEL_BINARY, "shardreel", "render", kShort.c_str(), "--size", "1920x1080",
              "--fps", "60", "-q", "-o", out.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    // Wait until the encoder's temporary file appears, then interrupt.
    for (int i = 0; i < 400 && fs::is_empty(dir.path); ++i) usleep(10000);
    kill(pid, SIGINT);
    int status = 0;
    waitpid(pid, &status, 0);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 130);
    CHECK(fs::is_empty(dir.path));
}

TEST_CASE("shardreel --version and --help work", "[film]") {
    const auto version = run_cli("--version");
    CHECK(version.exit_code == 0);
    CHECK(version.out == "shardreel " SHARDREEL_VERSION "\n");
    const auto help = run_cli("--help");
    CHECK(help.exit_code == 0);
    // Each command on its own line of the list: its name, then its summary.
    for (const char* cmd : {"render", "still", "check", "numbers"})
        CHECK(render_test::lines_matching(help.out, "  " + std::string(cmd) + " +[A-Z].*").size() ==
              1);
}

TEST_CASE("an image sequence gets one PNG per frame and its captions beside the directory",
          "[film]") {
    TempDir dir;
    const auto run =
        run_cli("render " + q(kShort) + " -o " + q(dir.path / "frames/%04d.png") + " -q");
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    int pngs = 0;
    for (const auto& e : fs::directory_iterator(dir.path / "frames"))
        pngs += e.path().extension() == ".png";
    CHECK(pngs == 38);
    CHECK(fs::exists(dir.path / "frames" / "0037.png"));
    CHECK(slurp(dir.path / "frames.vtt").starts_with("WEBVTT\n"));
    CHECK(fs::exists(dir.path / "frames.srt"));
}

TEST_CASE("the caption track is embedded for burn and track, and left out for off", "[film]") {
    TempDir dir;
    const std::string text = slurp(kShort);
    for (const std::string mode : {"burn", "track", "off"}) {
        INFO(mode);
        std::string board = text;
        const std::string from = "theme: dark}";
        board.replace(board.find(from), from.size(), "theme: dark, captions: " + mode + "}");
        const fs::path yaml = dir.path / (mode + ".yaml"), mp4 = dir.path / (mode + ".mp4");
        std::ofstream(yaml) << board;
        REQUIRE(run_cli("render " + q(yaml) + " -o " + q(mp4) + " -q").exit_code == 0);
        const auto info = render::probe_video(mp4.string());
        REQUIRE(info.subtitles.size() == (mode == "off" ? 0u : 1u));
        if (mode == "off") continue;
        CHECK(info.subtitles[0].codec == "mov_text");
        CHECK(info.subtitles[0].language == "eng");
        REQUIRE(info.subtitles[0].cues.size() == 3);
        CHECK(info.subtitles[0].cues[1].text == "Sixteen bytes each.");
        CHECK(info.subtitles[0].cues[1].start_seconds == Approx(1.0));
    }
}
