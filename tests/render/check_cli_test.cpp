// `shardreel check` end to end: exit codes, the exact diagnostics on stderr, the summary line on
// stdout, and that nothing is written (it runs in an empty directory that must stay empty).
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "tests/catch.hpp"
#include "tests/render/cli.hpp"
#include "tests/story/expectations.hpp"

namespace fs = std::filesystem;

namespace {

using render_test::slurp;
using render_test::TempDir;

// Runs `shardreel check ARGS` with `cwd` as the working directory.
render_test::CliRun check(const fs::path& cwd, const std::string& args) {
    return render_test::run_cli("check " + args, cwd);
}

// The "# expect: LINE:COL: MESSAGE" header of a broken storyboard, as check prints it.
std::string expected_stderr(const fs::path& file) {
    return story_test::expected_diagnostics(slurp(file), file.string());
}

const fs::path kBad = fs::path(SHARDREEL_SOURCE_DIR) / "tests/storyboards/bad";

// A valid storyboard of 65 s + 18.5 s = 83.5 s, which check rounds to 1:24.
fs::path write_valid_storyboard(const TempDir& dir) {
    const fs::path file = dir.path / "two.yaml";
    std::ofstream(file) << "shardreel: 1\n"
                           "chapters:\n"
                           "  - {id: intro, kind: title, duration: 65s}\n"
                           "  - {id: bytes, kind: bytes_per_parameter, duration: 18.5s}\n";
    return file;
}

// A title without narration, then a line said with the precision changing 0.01 s into it (any
// voice takes longer: a warning); `video`, the film's voice if any.
fs::path write_spoken(const TempDir& dir, const std::string& video) {
    const fs::path file = dir.path / "spoken.yaml";
    std::ofstream(file) << "shardreel: 1\n" + video +
                               "chapters:\n"
                               "  - {id: intro, kind: title, duration: 3s, narration: off}\n"
                               "  - id: bytes\n"
                               "    kind: bytes_per_parameter\n"
                               "    duration: auto\n"
                               "    beats:\n"
                               "      - {at: 0s, say: Every parameter costs sixteen bytes.}\n"
                               "      - {at: 0.01s, set: {precision: fp8}}\n";
    return file;
}

// text as a regular expression that matches it alone.
std::string literal(const std::string& text) {
    return std::regex_replace(text, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)");
}

}  // namespace

TEST_CASE("check reports each broken storyboard exactly, exits 2 and writes nothing") {
    int files = 0;
    for (const auto& entry : fs::directory_iterator(kBad)) {
        if (entry.path().extension() != ".yaml") continue;
        INFO(entry.path());
        TempDir cwd;
        const render_test::CliRun r = check(cwd.path, "'" + entry.path().string() + "'");
        CHECK(r.exit_code == 2);
        CHECK(r.out.empty());
        CHECK(r.err == expected_stderr(entry.path()));
        CHECK(fs::is_empty(cwd.path));
        ++files;
    }
    CHECK(files >= 40);
}

TEST_CASE("check prints a summary for a valid storyboard and exits 0") {
    TempDir dir, cwd;
    const fs::path file = write_valid_storyboard(dir);
    const render_test::CliRun r = check(cwd.path, "'" + file.string() + "'");
    CHECK(r.exit_code == 0);
    CHECK(r.out == file.string() + ": ok (2 chapters, 1:24)\n");
    CHECK(r.err.empty());
    CHECK(fs::is_empty(cwd.path));
}

TEST_CASE("check reads every file and fails when any is invalid or unreadable") {
    TempDir dir, cwd;
    const fs::path good = write_valid_storyboard(dir), bad = kBad / "unknown_key.yaml";
    const render_test::CliRun r =
        check(cwd.path, "'" + good.string() + "' missing.yaml '" + bad.string() + "' '" +
                            dir.path.string() + "'");
    CHECK(r.exit_code == 2);
    CHECK(r.out == good.string() + ": ok (2 chapters, 1:24)\n");
    CHECK(r.err == "missing.yaml: error: cannot read: No such file or directory\n" +
                       expected_stderr(bad) + dir.path.string() +
                       ": error: cannot read: Is a directory\n");
    CHECK(fs::is_empty(cwd.path));
}

TEST_CASE("check without a file is a usage error") {
    TempDir cwd;
    CHECK(check(cwd.path, "").exit_code == 2);
}

TEST_CASE("check prints each chapter's speech time when a voice speaks, and its warnings") {
    TempDir dir, cwd;
    const fs::path file = write_spoken(dir, "video: {narration: 'espeak-ng:en-us'}\n");
    const render_test::CliRun r = check(cwd.path, "'" + file.string() + "'");
    CHECK(r.exit_code == 0);
    const std::regex out(literal(file.string()) + R"(: ok \(2 chapters, 0:[0-9]{2}\)
  chapter 'intro': narration off, 3\.0 s
  chapter 'bytes': speech [0-9]+\.[0-9] s of [0-9]+\.[0-9] s
)");
    INFO(r.out);
    CHECK(std::regex_match(r.out, out));
    INFO(r.err);
    CHECK(std::regex_match(r.err, std::regex(".*spoken\\.yaml:9:23: warning: speech runs [0-9.]+s "
                                             "past the beat at 0\\.01s, line 10, which changes "
                                             "the picture mid-line\n")));
    CHECK(fs::is_empty(cwd.path));
}

TEST_CASE("check prints no speech times for a silent storyboard") {
    TempDir dir, cwd;
    const fs::path file = write_spoken(dir, "");  // lines to say, no voice: captions only
    const render_test::CliRun r = check(cwd.path, "'" + file.string() + "'");
    CHECK(r.exit_code == 0);
    // The summary, and no "chapter '...': speech" line after it.
    const std::vector<std::string> lines = render_test::lines_of(r.out);
    REQUIRE(lines.size() == 1);
    CHECK(std::regex_match(
        lines.front(), std::regex(literal(file.string()) + R"(: ok \(2 chapters, 0:[0-9]{2}\))")));
}
