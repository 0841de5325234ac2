// Running the built shardreel binary from tests: arguments, working directory, captured
// stdout/stderr and exit code; and self-removing temporary directories.
#pragma once
#include <filesystem>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "story/storyboard/storyboard.hpp"
#include "tests/story/lines.hpp"

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

// Shell text that runs the built binary with args: "'/path/to/shardreel' ARGS".
std::string shardreel(const std::string& args);

// Runs a bash script; stdout and stderr captured.
CliRun run_shell(const std::string& script, const std::filesystem::path& cwd = {});

// Runs `shardreel ARGS` (ARGS is shell text, quote paths yourself) in cwd (default: the current
// directory).
CliRun run_cli(const std::string& args, const std::filesystem::path& cwd = {});

std::string slurp(const std::filesystem::path& path);
// Whole-line reading of output (tests/story/lines.hpp): lines_of, has_line, line_after,
// lines_matching.
using story_test::has_line;
using story_test::line_after;
using story_test::lines_matching;
using story_test::lines_of;
void write_text(const std::filesystem::path& path, const std::string& text);

// A path single-quoted for the shell.
std::string q(const std::filesystem::path& p);

// tests/storyboards/good/short.yaml: 480x270 at 15 fps, chapters intro (1 s) and bytes (1.5 s).
std::filesystem::path short_film();
// A storyboard timed by reading-time estimates, no line spoken (the default film's voice would
// synthesise all 67 of its lines), in `lang` (empty: its own language): for tests that only draw
// chapters.
story::Storyboard load_unvoiced(const std::filesystem::path& path, const std::string& lang = {});
// storyboards/distributed-training.yaml through load_unvoiced.
story::Storyboard default_film_unvoiced();
// short.yaml with `from` replaced by `to` (which must occur), written to path.
std::filesystem::path short_variant(const std::filesystem::path& path, const std::string& from,
                                    const std::string& to);

// Whether a process's LD_DEBUG=libs log (its stderr) shows the loader initialising a library
// whose file name starts `name` ("libavcodec.so", "shardreel-voice.so"): its whole
// "PID: calling init: /path/name..." line.
bool initialised(const std::string& ld_debug_log, const std::string& name);

// Whether any write-then-rename temporary (".name.tmp-PID-N") is left under dir.
bool has_temp_files(const std::filesystem::path& dir);
// Waits, looking every 5 ms for up to timeout_ms, until a file whose name `matches` is in dir (a
// process killed mid-way is killed there); whether one came.
bool file_appears(const std::filesystem::path& dir,
                  const std::function<bool(const std::string& name)>& matches, int timeout_ms);
// Keys of the segments (*.mp4) in a cache directory; empty when it does not exist.
std::set<std::string> segment_keys(const std::filesystem::path& cache);

}  // namespace render_test
