// `shardreel render` and sound on the command line: --audio-only wants a .wav or .m4a and a film
// that sounds, --no-audio excludes it, and a silent storyboard renders and reports as before.
#include <filesystem>
#include <nlohmann/json.hpp>

#include "render/container/video_probe.hpp"
#include "tests/catch.hpp"
#include "tests/render/cli.hpp"

namespace fs = std::filesystem;
using render_test::q;
using render_test::run_cli;
using render_test::TempDir;

namespace {

const std::string kShort = render_test::short_film().string();

bool empty_dir(const fs::path& dir) { return !fs::exists(dir) || fs::is_empty(dir); }

}  // namespace

TEST_CASE("render --audio-only refuses what it cannot write, before writing anything", "[sound]") {
    TempDir dir;
    const fs::path out = dir.path / "out";
    auto run = run_cli("render " + q(kShort) + " --audio-only -o " + q(out / "film.mp4"));
    CHECK(run.exit_code == 2);
    CHECK(run.err == "shardreel: error: --audio-only writes .wav or .m4a, not " +
                         (out / "film.mp4").string() + "\n");
    run = run_cli("render " + q(kShort) + " --audio-only -o " + q(out / "film.m4a"));
    CHECK(run.exit_code == 2);
    CHECK(run.err == "shardreel: error: " + kShort +
                         " has no sound to write (no narration, music or sound cues)\n");
    run = run_cli("render " + q(kShort) + " --audio-only --no-audio -o " + q(out / "film.wav"));
    CHECK(run.exit_code == 2);
    run = run_cli("render " + q(kShort) + " --audio-only --segment-only");
    CHECK(run.exit_code == 2);
    CHECK(empty_dir(out));
}

TEST_CASE("a storyboard without sound renders a silent film, with or without --no-audio",
          "[sound]") {
    TempDir dir;
    for (const std::string flag : {"", " --no-audio"}) {
        const fs::path out = dir.path / ("film" + std::to_string(flag.size()) + ".mp4");
        const auto run = run_cli("render " + q(kShort) + " -o " + q(out) + " --json" + flag);
        INFO(run.err);
        REQUIRE(run.exit_code == 0);
        const auto report = nlohmann::json::parse(run.out);
        CHECK_FALSE(report.contains("audio"));
        for (const auto& c : report["chapters"]) CHECK_FALSE(c.contains("audio_cached"));
        CHECK(render::probe_video(out.string()).frame_count == 38);
        CHECK(render_test::slurp(out) == render_test::slurp(dir.path / "film0.mp4"));
    }
}
