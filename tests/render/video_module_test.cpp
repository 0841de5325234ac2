// The video module: render and jobs load libav through build/shardreel-video.so; still, check,
// numbers, sheet and schema never map it, nor a render with nothing to make (the dynamic
// loader's own log says which libraries a process opened), and a missing module is a runtime
// error naming it.
#include <filesystem>
#include <string>

#include "tests/catch.hpp"
#include "tests/render/cli.hpp"

using namespace render_test;

namespace {

// Whether the process the shell text starts opens libavcodec (LD_DEBUG=libs logs every library
// the loader maps, on stderr).
bool opens_libav(const std::string& args, const std::filesystem::path& cwd) {
    const CliRun r = run_shell("LD_DEBUG=libs " + shardreel(args), cwd);
    INFO(args << "\n" << r.err.substr(0, 2000));
    CHECK(r.exit_code == 0);
    return render_test::initialised(r.err, "libavcodec.so");
}

}  // namespace

TEST_CASE("still, check, numbers, sheet and schema start without libav, render loads it",
          "[video-module]") {
    const TempDir dir;
    const std::string film = q(short_film());
    CHECK_FALSE(opens_libav("still " + film + " --at bytes@0.5s -o still.png", dir.path));
    CHECK_FALSE(opens_libav("check " + film, dir.path));
    CHECK_FALSE(opens_libav("numbers --model llama-2-7b --gpus 8", dir.path));
    CHECK_FALSE(opens_libav("sheet " + film + " -o sheet.png", dir.path));
    CHECK_FALSE(opens_libav("schema", dir.path));
    CHECK(opens_libav("render " + film + " -o film.mp4 --quiet", dir.path));
    CHECK(opens_libav("--help", dir.path));  // the usage lists render and jobs too
}

TEST_CASE("a render that finds its film as it left it starts without libav", "[video-module]") {
    const TempDir dir;
    const std::string render = "render " + q(short_film()) + " -o film.mp4 --quiet";
    CHECK(opens_libav(render, dir.path));
    CHECK_FALSE(opens_libav(render, dir.path));  // nothing changed
    CHECK(opens_libav(render + " --size 320x180", dir.path));
    CHECK(opens_libav(render, dir.path));  // the film written for another size: joined again
    CHECK_FALSE(opens_libav(render, dir.path));
    std::filesystem::remove(dir.path / "film.mp4");
    CHECK(opens_libav(render, dir.path));
}

TEST_CASE("render without its video module fails with exit 1 and names the module",
          "[video-module]") {
    const TempDir dir;
    // A copy of the binary alone in a directory: no shardreel-video.so beside it.
    const auto lone = dir.path / "shardreel";
    std::filesystem::copy_file(SHARDREEL_BINARY, lone);
    const CliRun r = run_shell(q(lone) + " render " + q(short_film()) + " -o film.mp4", dir.path);
    CHECK(r.exit_code == 1);
    const std::string module = (dir.path / "shardreel-video.so").string();
    CHECK(r.err == "shardreel: error: cannot load the video module " + module + ": " + module +
                       ": cannot open shared object file: No such file or directory (build it "
                       "with scripts/build.sh, or run ./shardreel)\n");
    CHECK_FALSE(std::filesystem::exists(dir.path / "film.mp4"));
    const CliRun still = run_shell(q(lone) + " check " + q(short_film()), dir.path);
    CHECK(still.exit_code == 0);  // the core commands need no module
}
