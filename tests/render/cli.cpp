// CLI test helpers; see cli.hpp.
#include "tests/render/cli.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <vector>

#include "story/load/timed.hpp"
#include "tests/catch.hpp"

namespace fs = std::filesystem;

namespace render_test {

TempDir::TempDir() {
    std::string pattern = (fs::temp_directory_path() / "shardreel-test-XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    path = pattern;
}

TempDir::~TempDir() { fs::remove_all(path); }

std::string slurp(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream buf;
    buf << in.rdbuf();
    return buf.str();
}

void write_text(const fs::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

std::string q(const fs::path& p) {
    std::string out = "'";
    for (const char c : p.string()) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

fs::path short_film() {
    return fs::path(SHARDREEL_SOURCE_DIR) / "tests/storyboards/good/short.yaml";
}

story::Storyboard load_unvoiced(const fs::path& path, const std::string& lang) {
    story::Diagnostics errors;
    std::vector<story::Diagnostic> warnings;
    auto board = story::load_timed(slurp(path), path.string(), errors, warnings, {}, lang);
    INFO(errors.format());
    REQUIRE(board);
    return *board;
}

story::Storyboard default_film_unvoiced() {
    return load_unvoiced(fs::path(SHARDREEL_SOURCE_DIR) / "storyboards/distributed-training.yaml");
}

fs::path short_variant(const fs::path& path, const std::string& from, const std::string& to) {
    std::string text = slurp(short_film());
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    write_text(path, text.replace(at, from.size(), to));
    return path;
}

bool initialised(const std::string& ld_debug_log, const std::string& name) {
    const std::string escaped = std::regex_replace(name, std::regex(R"([.+])"), R"(\$&)");
    return !lines_matching(ld_debug_log, " *[0-9]+:\tcalling init: (.*/)?" + escaped + "[.0-9]*")
                .empty();
}

bool has_temp_files(const fs::path& dir) {
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.path().filename().string().find(".tmp-") != std::string::npos) return true;
    return false;
}

bool file_appears(const fs::path& dir, const std::function<bool(const std::string& name)>& matches,
                  int timeout_ms) {
    for (int waited = 0;; waited += 5) {
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(dir, ec))
            if (matches(e.path().filename().string())) return true;
        if (waited >= timeout_ms) return false;
        usleep(5000);
    }
}

std::set<std::string> segment_keys(const fs::path& cache) {
    std::set<std::string> out;
    std::error_code missing;
    for (const auto& e : fs::directory_iterator(cache, missing))
        if (e.path().extension() == ".mp4") out.insert(e.path().stem().string());
    return out;
}

std::string shardreel(const std::string& args) { return "'" SHARDREEL_BINARY "' " + args; }

CliRun run_shell(const std::string& script, const fs::path& cwd) {
    TempDir scratch;
    const fs::path err = scratch.path / "stderr";
    std::string command = "bash -c " + q(script) + " 2>'" + err.string() + "'";
    if (!cwd.empty()) command = "cd '" + cwd.string() + "' && " + command;
    CliRun r;
    FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) r.out.append(buf, n);
    const int status = pclose(pipe);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.err = slurp(err);
    return r;
}

CliRun run_cli(const std::string& args, const fs::path& cwd) {
    return run_shell(shardreel(args), cwd);
}

}  // namespace render_test
