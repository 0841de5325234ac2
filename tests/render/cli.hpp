// Running the built shardreel binary from tests: arguments, working directory, captured
// stdout/stderr and exit code; and self-removing temporary directories.
#pragma once
#include <filesystem>
#include <string>

namespace render_test {

struct TempDir {
    std::filesystem::path path;
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
};

struct CliRun {
    int exit_code = -1;  // -1 when killed by a signal
    std::string out, err;
};

// Runs `shardreel ARGS` (ARGS is shell text, quote paths yourself) in cwd (default: the current
// directory).
CliRun run_cli(const std::string& args, const std::filesystem::path& cwd = {});

std::string slurp(const std::filesystem::path& path);

}  // namespace render_test
