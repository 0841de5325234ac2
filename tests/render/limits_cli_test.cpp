// Limits on the command line: frame size and fps beyond what a storyboard may ask for are usage
// errors (exit 2, nothing written), not attempts to allocate an enormous frame.
#include <filesystem>

#include "tests/catch.hpp"
#include "tests/render/cli.hpp"

namespace fs = std::filesystem;
using render_test::run_cli;
using render_test::TempDir;

namespace {

const std::string kShort = "'" SHARDREEL_SOURCE_DIR "/tests/storyboards/good/short.yaml'";

}  // namespace

TEST_CASE("render refuses --size above 7680x4320 and --fps above 120") {
    TempDir dir;
    const auto still =
        run_cli("still " + kShort + " --at intro@0s --size 100000x100000 -o x.png", dir.path);
    CHECK(still.exit_code == 2);
    CHECK(still.err ==
          "shardreel: error: video size must be between 16x16 and 7680x4320, got 100000x100000\n");
    const auto render = run_cli("render " + kShort + " --fps 121 -o x.mp4", dir.path);
    CHECK(render.exit_code == 2);
    CHECK(render.err == "shardreel: error: fps must be between 1 and 120, got 121\n");
    CHECK(fs::is_empty(dir.path));
}
