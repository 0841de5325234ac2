// `shardreel check` end to end: exit codes, the exact diagnostics on stderr, the summary line on
// stdout, and that nothing is written (it runs in an empty directory that must stay empty).
#include <stdlib.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace {

struct TempDir {
    fs::path path;
    TempDir() {
        std::string pattern = (fs::temp_directory_path() / "shardreel-check-XXXXXX").string();
        REQUIRE(mkdtemp(pattern.data()) != nullptr);
        path = pattern;
    }
    ~TempDir() { fs::remove_all(path); }
};

struct Run {
    int exit_code = -1;
    std::string out, err;
};

std::string slurp(const fs::path& path) {
    std::ifstream in(path);
    std::ostringstream buf;
    buf << in.rdbuf();
    return buf.str();
}

// Runs `shardreel check ARGS` with `cwd` as the working directory.
Run check(const fs::path& cwd, const std::string& args) {
    TempDir scratch;
    const fs::path err = scratch.path / "stderr";
    const std::string command = "cd '" + cwd.string() + "' && '" SHARDREEL_BINARY "' check " +
                                args + " 2>'" + err.string() + "'";
    Run r;
    FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) r.out.append(buf, n);
    const int status = pclose(pipe);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.err = slurp(err);
    return r;
}

// The "# expect: LINE:COL: MESSAGE" header of a broken storyboard, as check prints it.
std::string expected_stderr(const fs::path& file) {
    const std::string prefix = "# expect: ";
    std::istringstream in(slurp(file));
    std::string line, out;
    while (std::getline(in, line) && line.starts_with(prefix)) {
        const std::string rest = line.substr(prefix.size());
        const std::size_t message_at = rest.find(": ");
        out += file.string() + ":" + rest.substr(0, message_at) +
               ": error: " + rest.substr(message_at + 2) + "\n";
    }
    return out;
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

}  // namespace

TEST_CASE("check reports each broken storyboard exactly, exits 2 and writes nothing") {
    int files = 0;
    for (const auto& entry : fs::directory_iterator(kBad)) {
        if (entry.path().extension() != ".yaml") continue;
        INFO(entry.path());
        TempDir cwd;
        const Run r = check(cwd.path, "'" + entry.path().string() + "'");
        CHECK(r.exit_code == 2);
        CHECK(r.out.empty());
        CHECK(r.err == expected_stderr(entry.path()));
        CHECK(fs::is_empty(cwd.path));
        ++files;
    }
    CHECK(files >= 24);
}

TEST_CASE("check prints a summary for a valid storyboard and exits 0") {
    TempDir dir, cwd;
    const fs::path file = write_valid_storyboard(dir);
    const Run r = check(cwd.path, "'" + file.string() + "'");
    CHECK(r.exit_code == 0);
    CHECK(r.out == file.string() + ": ok (2 chapters, 1:24)\n");
    CHECK(r.err.empty());
    CHECK(fs::is_empty(cwd.path));
}

TEST_CASE("check reads every file and fails when any is invalid or unreadable") {
    TempDir dir, cwd;
    const fs::path good = write_valid_storyboard(dir), bad = kBad / "unknown_key.yaml";
    const Run r = check(cwd.path, "'" + good.string() + "' missing.yaml '" + bad.string() + "' '" +
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
