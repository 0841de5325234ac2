// `jobs --format slurm|parallel`: the Slurm array script is valid bash with well-formed #SBATCH
// lines, one task per missing segment, task i draws segment i, and it submits the assemble after
// the array (a stand-in sbatch records the calls); the GNU parallel script draws and assembles;
// and a worker killed mid-segment leaves nothing an assemble would take.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "tests/catch.hpp"
#include "tests/render/cli.hpp"
#include "tests/skip.hpp"

namespace fs = std::filesystem;
using render_test::lines_matching;
using render_test::lines_of;
using render_test::q;
using render_test::run_cli;
using render_test::run_shell;
using render_test::segment_keys;
using render_test::slurp;
using render_test::TempDir;

namespace {

std::vector<std::string> sbatch_lines(const std::string& script) {
    std::vector<std::string> out;
    for (const std::string& line : lines_of(script))
        if (line.rfind("#SBATCH", 0) == 0) out.push_back(line);
    return out;
}

bool has_line(const std::vector<std::string>& lines, const std::string& line) {
    return std::find(lines.begin(), lines.end(), line) != lines.end();
}

// A board copied into dir as short.yaml; returns `jobs short.yaml --cache cache` with args.
std::string prepare(const TempDir& dir, const std::string& args) {
    fs::copy_file(render_test::short_film(), dir.path / "short.yaml");
    const auto run = run_cli("jobs short.yaml --cache cache " + args, dir.path);
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    return run.out;
}

std::string pending(const TempDir& dir) {
    return run_cli("jobs short.yaml --cache cache", dir.path).out;
}

bool on_path(const std::string& tool) {
    return run_shell("command -v " + tool + " >/dev/null").exit_code == 0;
}

}  // namespace

TEST_CASE("jobs --format slurm writes an array script: valid bash, one task per missing segment",
          "[jobs]") {
    TempDir dir;
    const std::string script =
        prepare(dir, "--format slurm --partition debug --time 00:10:00 --log-dir logs");
    render_test::write_text(dir.path / "jobs.sbatch", script);
    CHECK(run_shell("bash -n jobs.sbatch", dir.path).exit_code == 0);

    // Every #SBATCH line is `#SBATCH --option=value`, and they all precede the first command.
    const auto directives = sbatch_lines(script);
    const std::regex well_formed("#SBATCH --[a-z-]+=[^ \t]+");
    for (const std::string& line : directives) CHECK(std::regex_match(line, well_formed));
    const auto all = lines_of(script);
    const auto first_command = std::find_if(
        all.begin() + 1, all.end(), [](const std::string& l) { return !l.empty() && l[0] != '#'; });
    CHECK(std::count_if(first_command, all.end(),
                        [](const std::string& l) { return l.rfind("#SBATCH", 0) == 0; }) == 0);
    CHECK(has_line(directives, "#SBATCH --array=0-1"));  // short.yaml: intro and bytes
    CHECK(has_line(directives, "#SBATCH --cpus-per-task=2"));
    CHECK(has_line(directives, "#SBATCH --partition=debug"));
    CHECK(has_line(directives, "#SBATCH --time=00:10:00"));
    CHECK(has_line(directives, "#SBATCH --output=logs/segment-%A_%a.out"));
    CHECK(has_line(directives, "#SBATCH --error=logs/segment-%A_%a.err"));
    CHECK(has_line(directives, "#SBATCH --chdir=" + fs::canonical(dir.path).string()));

    // Task i draws segment i (run from elsewhere: the script goes to its directory itself).
    const std::string task = "SLURM_ARRAY_TASK_ID=1 bash " + q(dir.path / "jobs.sbatch");
    REQUIRE(run_shell(task).exit_code == 0);
    CHECK(segment_keys(dir.path / "cache").size() == 1);
    const std::vector<std::string> left = lines_of(pending(dir));
    REQUIRE(left.size() == 1);
    CHECK(
        left.front().ends_with(" render short.yaml --only intro --cache cache --segment-only "
                               "--quiet"));
    REQUIRE(run_shell("SLURM_ARRAY_TASK_ID=0 bash jobs.sbatch", dir.path).exit_code == 0);
    CHECK(pending(dir).empty());
    const auto beyond = run_shell("SLURM_ARRAY_TASK_ID=2 bash jobs.sbatch", dir.path);
    CHECK(beyond.exit_code == 2);
    CHECK(beyond.err == "shardreel: this array has no task 2 (0-1)\n");
}

TEST_CASE("jobs --format slurm: the script submits the array, then the assemble with afterok on it",
          "[jobs]") {
    TempDir dir;
    render_test::write_text(dir.path / "jobs.sbatch", prepare(dir, "--format slurm"));
    // A stand-in sbatch: records its arguments, answers job ids 41 and 42 the --parsable way.
    fs::create_directory(dir.path / "bin");
    render_test::write_text(dir.path / "bin/sbatch",
                            "#!/bin/bash\nprintf '%s\\n' \"$*\" >> \"$SBATCH_LOG\"\n"
                            "echo \"4$(wc -l < \"$SBATCH_LOG\");cluster\"\n");
    fs::permissions(dir.path / "bin/sbatch", fs::perms::owner_all);
    const auto submitted =
        run_shell("PATH=" + q(dir.path / "bin") + ":$PATH SBATCH_LOG=" + q(dir.path / "calls") +
                      " bash jobs.sbatch",
                  dir.path);
    INFO(submitted.err);
    REQUIRE(submitted.exit_code == 0);
    CHECK(submitted.out == "41 42\n");
    CHECK(fs::is_directory(dir.path / "out/slurm"));  // sbatch does not create log directories
    const auto calls = lines_of(slurp(dir.path / "calls"));
    REQUIRE(calls.size() == 2);
    CHECK(calls[0] == "--parsable " + fs::canonical(dir.path / "jobs.sbatch").string());
    CHECK(calls[1] ==
          "--parsable --dependency=afterok:41 --kill-on-invalid-dep=yes "
          "--job-name=shardreel-assemble --cpus-per-task=2 --chdir=" +
              fs::canonical(dir.path).string() +
              " --output=out/slurm/assemble-%j.out --error=out/slurm/assemble-%j.err "
              "--wrap=" SHARDREEL_BINARY " render short.yaml --cache cache");
}

TEST_CASE("jobs --format parallel draws the segments under GNU parallel, then assembles",
          "[jobs][may-skip]") {
    if (!on_path("parallel")) return test_support::skip("GNU parallel is not installed");
    TempDir dir;
    render_test::write_text(dir.path / "jobs.sh", prepare(dir, "--format parallel"));
    const auto run = run_shell("bash jobs.sh", dir.path);
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    CHECK(segment_keys(dir.path / "cache").size() == 2);
    CHECK(lines_matching(run.err,
                         "shardreel: wrote out/short\\.mp4 \\(0 frames drawn, 2 of 2 chapters "
                         "cached, [0-9.]+ s\\)")
              .size() == 1);
    TempDir fresh;
    REQUIRE(run_cli("render " + q(render_test::short_film()) + " -q -o " + q(fresh.path / "f.mp4"))
                .exit_code == 0);
    CHECK(slurp(dir.path / "out/short.mp4") == slurp(fresh.path / "f.mp4"));
}

TEST_CASE("jobs with nothing to draw says so on stderr and prints nothing, in every format",
          "[jobs]") {
    TempDir dir;
    prepare(dir, "");
    REQUIRE(run_cli("render short.yaml -q --cache cache --segment-only", dir.path).exit_code == 0);
    for (const std::string format : {"lines", "slurm", "parallel"}) {
        const auto run = run_cli("jobs short.yaml --cache cache --format " + format, dir.path);
        CHECK(run.exit_code == 0);
        CHECK(run.out.empty());
        CHECK(lines_matching(run.err,
                             "shardreel: every segment is in the cache cache: nothing to "
                             "draw( or submit)?; `.* render short\\.yaml --cache cache` "
                             "assembles the films")
                  .size() == 1);
    }
    const auto bad = run_cli("jobs short.yaml --format sge", dir.path);
    CHECK(bad.exit_code == 2);
    CHECK(render_test::has_line(bad.err, "--format: sge not in {lines,slurm,parallel}"));
    CHECK(bad.out.empty());
}

TEST_CASE(
    "jobs after a worker killed mid-segment: no entry an assemble would take, the segment listed "
    "again",
    "[jobs]") {
    TempDir dir;
    const fs::path board =
        render_test::short_variant(dir.path / "long.yaml", "duration: 1.5s", "duration: 6s");
    const fs::path cache = dir.path / "cache";
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        execl(SHARDREEL_BINARY, "shardreel", "render", board.c_str(), "--only", "bytes", "-q",
              "--fps", "60", "--cache", cache.c_str(), "--segment-only",
              static_cast<char*>(nullptr));
        _exit(127);
    }
    // SIGKILL (no handler, no clean-up) once the segment's temporary file is open: the sink has
    // begun and its 360 frames are being drawn.
    REQUIRE(render_test::file_appears(
        cache,
        [](const std::string& f) {
            return std::regex_match(f, std::regex(R"(\..+\.mp4\.tmp-[0-9]+-[0-9]+)"));
        },
        10000));
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    REQUIRE(WIFSIGNALED(status));

    CHECK(render_test::has_temp_files(cache));  // the killed writer's file, under its temp name
    CHECK(segment_keys(cache).empty());         // no <key>.mp4 and no record
    for (const auto& e : fs::directory_iterator(cache)) CHECK(e.path().extension() != ".json");
    const auto listed = run_cli("jobs long.yaml --fps 60 --cache cache", dir.path);
    const std::vector<std::string> jobs = lines_of(listed.out);
    REQUIRE(jobs.size() == 2);  // intro, bytes
    CHECK(
        jobs[1].ends_with(" render long.yaml --only bytes --cache cache --segment-only --quiet "
                          "--fps 60"));

    // Re-running what jobs lists fills the cache; the assemble draws nothing.
    REQUIRE(run_shell(listed.out, dir.path).exit_code == 0);
    const auto assembled = run_cli("render long.yaml --fps 60 --cache cache -o film.mp4", dir.path);
    CHECK(lines_matching(assembled.err, R"(shardreel: wrote film\.mp4 \(0 frames drawn, 2 of 2 )"
                                        R"(chapters cached, .*\))")
              .size() == 1);
}

// The article page's film captions by a track, not burned in: its segments are other keys than
// the render's, listed with --page (each key once), drawn by the workers, and the pages written
// after the assemble draw no frame of their films.
TEST_CASE("jobs --page adds the pages' film segments, so the page after them draws no frame",
          "[jobs]") {
    TempDir dir;
    const auto lines = lines_of(prepare(dir, "--page"));
    const std::string bin = SHARDREEL_BINARY " render short.yaml --only ";
    CHECK(lines == std::vector<std::string>{
                       bin + "intro --cache cache --segment-only --quiet",
                       bin + "bytes --cache cache --segment-only --quiet",
                       bin + "intro --captions-as track --cache cache --segment-only --quiet",
                       bin + "bytes --captions-as track --cache cache --segment-only --quiet"});
    for (const std::string& line : lines) REQUIRE(run_shell(line, dir.path).exit_code == 0);
    CHECK(segment_keys(dir.path / "cache").size() == 4);
    const auto assemble =
        run_cli("jobs short.yaml --cache cache --page --format parallel", dir.path);
    CHECK(assemble.out.empty());  // nothing left to draw; stderr names the assemble
    CHECK(lines_matching(assemble.err,
                         "shardreel: every segment is in the cache cache: nothing to "
                         "draw; `.* render short\\.yaml --cache cache && .* page "
                         "short\\.yaml --cache cache` assembles the films")
              .size() == 1);
    const auto page = run_cli("page short.yaml --cache cache --json", dir.path);
    INFO(page.err);
    REQUIRE(page.exit_code == 0);
    CHECK(nlohmann::json::parse(page.out).at("film_frames_drawn") == 0);
    const auto film = run_cli("render short.yaml --cache cache --json -q", dir.path);
    CHECK(nlohmann::json::parse(film.out).at("frames_drawn") == 0);

    // A storyboard that captions by a track already: the page's segments are the render's.
    render_test::write_text(
        dir.path / "track.yaml",
        std::regex_replace(slurp(dir.path / "short.yaml"), std::regex("\nvideo: \\{"),
                           "\nvideo: {captions: track, "));
    CHECK(lines_of(run_cli("jobs track.yaml --cache fresh --page", dir.path).out).size() == 2);
    const auto only = run_cli("jobs short.yaml --page --only intro", dir.path);
    CHECK(only.exit_code == 2);
    CHECK(render_test::has_line(only.err, "--only excludes --page"));
    const auto sideways = run_cli("render short.yaml --captions-as sideways", dir.path);
    CHECK(sideways.exit_code == 2);
    CHECK(render_test::has_line(sideways.err, "--captions-as: sideways not in {burn,track,off}"));
}
