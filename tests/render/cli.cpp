// CLI test helpers; see cli.hpp.
#include "tests/render/cli.hpp"

#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

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

CliRun run_cli(const std::string& args, const fs::path& cwd) {
    TempDir scratch;
    const fs::path err = scratch.path / "stderr";
    std::string command = "'" SHARDREEL_BINARY "' " + args + " 2>'" + err.string() + "'";
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

}  // namespace render_test
