// Every input the fuzzers (fuzz/, scripts/fuzz.sh) once crashed on, kept in
// tests/storyboards/fuzz/: each must now load with exactly its expected diagnostics or, when it
// opens with "# expect: ok", validate and draw every chapter at the times the still fuzzer samples.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "fuzz/exercise.hpp"
#include "story/load/timed.hpp"
#include "tests/catch.hpp"
#include "tests/story/expectations.hpp"

using story_test::slurp;

TEST_CASE("every fuzz crasher loads with its expected diagnostics and draws when valid") {
    const std::filesystem::path dir =
        std::filesystem::path(SHARDREEL_SOURCE_DIR) / "tests/storyboards/fuzz";
    const story::ApproxTextMetrics metrics;
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() != ".yaml") continue;
        const std::string path = entry.path().string(), text = slurp(path);
        INFO(path);
        REQUIRE(text.starts_with("# expect: "));
        story::Diagnostics diags;
        std::vector<story::Diagnostic> warnings;
        const auto board = story::load_timed(text, path, diags, warnings);
        CHECK(story::format_diagnostics(diags, warnings) ==
              story_test::expected_diagnostics(text, path));
        if (board) {
            int scenes = 0;
            fuzz::exercise(*board, board->video, metrics, [&](const story::Scene&) { ++scenes; });
            CHECK(scenes > 0);
        }
        ++files;
    }
    CHECK(files >= 1);
}
