// Faults during a render: a full disk (a small tmpfs in a private mount namespace, skipped where
// the machine allows none, and a file size limit that needs no privileges: both while a segment
// is drawn and while the film is assembled), an unwritable output directory, missing or broken
// fonts and chapters too short for one frame. Each must give a clear error naming the path and
// the reason, leave no partial file, keep what was there before and keep the cache usable.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <vector>

#include "render/container/video_probe.hpp"
#include "tests/catch.hpp"
#include "tests/render/cli.hpp"
#include "tests/skip.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using render_test::CliRun;
using render_test::has_temp_files;
using render_test::q;
using render_test::run_cli;
using render_test::run_shell;
using render_test::segment_keys;
using render_test::shardreel;
using render_test::short_film;
using render_test::slurp;
using render_test::TempDir;
using render_test::write_text;

namespace {

// "key=value" lines printed by a fault script.
std::map<std::string, std::string> fields(const std::string& out) {
    std::map<std::string, std::string> m;
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);)
        if (const auto eq = line.find('='); eq != std::string::npos)
            m[line.substr(0, eq)] = line.substr(eq + 1);
    return m;
}

// Every segment in the cache has its record and every record its segment.
bool records_match_segments(const fs::path& cache) {
    std::set<std::string> records;
    for (const auto& e : fs::directory_iterator(cache))
        if (e.path().extension() == ".json") records.insert(e.path().stem().string());
    return records == segment_keys(cache);
}

std::map<std::string, bool> cached_by_id(const std::string& report) {
    std::map<std::string, bool> out;
    const json parsed = json::parse(report);
    for (const json& c : parsed.at("chapters")) out[c.at("id")] = c.at("cached");
    return out;
}

// The short film rendered with nothing cached, for byte comparisons.
std::string fresh_short_film(const fs::path& dir) {
    const fs::path out = dir / "fresh.mp4";
    REQUIRE(run_cli("render " + q(short_film()) + " -q --no-cache -o " + q(out)).exit_code == 0);
    return slurp(out);
}

// `render` of the short film, one chapter at a time so the failing one is always the same.
std::string render_args(const fs::path& output, const fs::path& cache) {
    return "render " + q(short_film()) + " -j1 -o " + q(output) + " --cache " + q(cache);
}

// Renders again into output with the same cache: the chapters `cached` says come from the cache,
// and the film has the bytes of a render with no cache at all.
void check_resumes(const fs::path& output, const fs::path& cache,
                   const std::map<std::string, bool>& cached) {
    const auto again = run_cli(render_args(output, cache) + " --json");
    REQUIRE(again.exit_code == 0);
    CHECK(cached_by_id(again.out) == cached);
    TempDir fresh;
    CHECK(slurp(output) == fresh_short_film(fresh.path));
}

// Runs script in a private mount namespace (where it may mount a tmpfs). Where this machine
// allows none, skips the test (ctest reports it Skipped) and returns nullopt: return at once.
std::optional<CliRun> in_mount_namespace(const std::string& script) {
    // The probe does what the tests do: mount a tmpfs in the namespace.
    static const std::optional<std::string> prefix = []() -> std::optional<std::string> {
        const std::string probe =
            "d=$(mktemp -d) && mount -t tmpfs -o size=4k tmpfs \"$d\"; r=$?; "
            "umount \"$d\" 2>/dev/null; rmdir \"$d\"; exit $r";
        for (const char* p : {"unshare --mount", "unshare --user --map-root-user --mount"})
            if (run_shell(std::string(p) + " bash -c " + q(probe)).exit_code == 0)
                return std::string(p);
        return std::nullopt;
    }();
    if (!prefix) {
        test_support::skip(
            "no mount namespace with tmpfs (unshare --mount and mount -t tmpfs "
            "failed): the tmpfs fault is not exercised here");
        return std::nullopt;
    }
    return run_shell(*prefix + " bash -c " + q(script));
}

std::vector<std::string> names_in(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

// A film and its captions from an earlier render, which a failed render must leave as they are.
void write_old_film(const fs::path& film) {
    fs::create_directories(film.parent_path());
    write_text(film, "OLD");
    write_text(fs::path(film).replace_extension(".vtt"), "OLDVTT");
}

// The earlier film and captions unchanged, nothing else beside them, no temporary file under dir.
void check_old_film_kept(const fs::path& film, const fs::path& dir) {
    CHECK(slurp(film) == "OLD");
    CHECK(slurp(fs::path(film).replace_extension(".vtt")) == "OLDVTT");
    CHECK(names_in(film.parent_path()) == std::vector<std::string>{"film.mp4", "film.vtt"});
    CHECK_FALSE(has_temp_files(dir));
}

}  // namespace

TEST_CASE("a disk that fills while a segment is drawn: exit 1, old files kept, cache resumable",
          "[faults][may-skip]") {
    TempDir dir;
    const fs::path disk = dir.path / "disk", film = disk / "out/film.mp4", cache = disk / "cache";
    fs::create_directories(disk);
    // 32 KiB: the 5 KB intro segment and its record fit, the 26 KB bytes segment does not.
    const std::string script =
        "mount -t tmpfs -o size=32k tmpfs " + q(disk) + " || exit 99\n" + "mkdir " +
        q(disk / "out") + " && printf OLD > " + q(film) + " && printf OLDVTT > " +
        q(disk / "out/film.vtt") + "\n" + shardreel(render_args(film, cache)) + " -q 2> " +
        q(dir.path / "err") + "; echo exit=$?\n" + "echo film=$(cat " + q(film) +
        "); echo vtt=$(cat " + q(disk / "out/film.vtt") + ")\n" + "echo srt=$(ls " +
        q(disk / "out") + " | grep -c srt)\n" + "echo temps=$(find " + q(disk) +
        " -name '*.tmp-*' | wc -l)\n" + "cp -r " + q(cache) + " " + q(dir.path / "cache-after") +
        "\n" + "mount -o remount,size=8m " + q(disk) + "\n" + shardreel(render_args(film, cache)) +
        " --json > " + q(dir.path / "report.json") + "; echo again=$?\n" + "cp " + q(film) + " " +
        q(dir.path / "film.mp4") + "\n";
    const auto run = in_mount_namespace(script);
    if (!run) return;
    INFO(run->out << run->err);
    auto f = fields(run->out);
    REQUIRE(f["exit"] == "1");
    const std::string err = slurp(dir.path / "err");
    CHECK_THAT(err, Catch::Contains("cannot write " + cache.string() + "/") &&
                        Catch::Contains(": No space left on device") &&
                        Catch::Contains("chapter 'bytes'"));
    CHECK(f["film"] == "OLD");
    CHECK(f["vtt"] == "OLDVTT");
    CHECK(f["srt"] == "0");
    CHECK(f["temps"] == "0");
    CHECK(segment_keys(dir.path / "cache-after").size() == 1);  // intro, finished before
    CHECK(records_match_segments(dir.path / "cache-after"));

    REQUIRE(f["again"] == "0");
    CHECK(cached_by_id(slurp(dir.path / "report.json")) ==
          std::map<std::string, bool>{{"intro", true}, {"bytes", false}});
    CHECK(slurp(dir.path / "film.mp4") == fresh_short_film(dir.path));
}

TEST_CASE("a disk that fills while the film is assembled: exit 1, the old film and captions kept",
          "[faults][may-skip]") {
    TempDir dir;
    const fs::path disk = dir.path / "disk", film = disk / "film.mp4", cache = dir.path / "cache";
    fs::create_directories(disk);
    // 24 KiB on the output's disk: the captions fit, the 31 KB film does not; the cache is
    // elsewhere.
    const std::string script =
        "mount -t tmpfs -o size=24k tmpfs " + q(disk) + " || exit 99\n" + "printf OLD > " +
        q(film) + " && printf OLDVTT > " + q(disk / "film.vtt") + "\n" +
        shardreel(render_args(film, cache)) + " -q 2> " + q(dir.path / "err") + "; echo exit=$?\n" +
        "echo film=$(cat " + q(film) + "); echo vtt=$(cat " + q(disk / "film.vtt") + ")\n" +
        "echo files=$(ls -A " + q(disk) + " | tr '\\n' ' ')\n";
    const auto run = in_mount_namespace(script);
    if (!run) return;
    INFO(run->out << run->err);
    auto f = fields(run->out);
    REQUIRE(f["exit"] == "1");
    CHECK_THAT(slurp(dir.path / "err"),
               Catch::Contains("cannot write " + film.string() + ": No space left on device"));
    CHECK(f["film"] == "OLD");
    CHECK(f["vtt"] == "OLDVTT");
    CHECK(f["files"] == "film.mp4 film.vtt");  // no temporaries, no new .srt

    // Both segments were finished before the failure: the next render draws nothing.
    check_resumes(dir.path / "film.mp4", cache, {{"intro", true}, {"bytes", true}});
}

TEST_CASE(
    "a file size limit (EFBIG) while a segment is drawn fails like a full disk, without "
    "privileges",
    "[faults]") {
    TempDir dir;
    const fs::path film = dir.path / "out" / "film.mp4", cache = dir.path / "cache";
    write_old_film(film);
    // 16 KiB per file: the intro segment fits, the bytes segment does not. SIGXFSZ is ignored so
    // the write fails with EFBIG instead of killing the process.
    const auto run =
        run_shell("trap '' XFSZ; ulimit -f 16; " + shardreel(render_args(film, cache)) + " -q");
    INFO(run.err);
    REQUIRE(run.exit_code == 1);
    CHECK_THAT(run.err, Catch::Contains("cannot write " + cache.string() + "/") &&
                            Catch::Contains(": File too large") &&
                            Catch::Contains("chapter 'bytes'"));
    check_old_film_kept(film, dir.path);     // no .srt either
    CHECK(segment_keys(cache).size() == 1);  // intro, finished before
    CHECK(records_match_segments(cache));

    check_resumes(film, cache, {{"intro", true}, {"bytes", false}});
}

TEST_CASE("a file size limit (EFBIG) while the film is assembled: the old film and captions kept",
          "[faults]") {
    TempDir dir;
    const fs::path film = dir.path / "out" / "film.mp4", cache = dir.path / "cache";
    write_old_film(film);
    // 28 KiB per file: both segments (5 and 26 KB) and the captions fit, the 31 KB film does not.
    const auto run =
        run_shell("trap '' XFSZ; ulimit -f 28; " + shardreel(render_args(film, cache)) + " -q");
    INFO(run.err);
    REQUIRE(run.exit_code == 1);
    CHECK_THAT(run.err, Catch::Contains("cannot write " + film.string() + ": File too large"));
    REQUIRE(segment_keys(cache).size() == 2);  // the limit struck the film, not a segment
    CHECK(records_match_segments(cache));
    check_old_film_kept(film, dir.path);

    // Both segments were finished before the failure: the next render draws nothing.
    check_resumes(film, cache, {{"intro", true}, {"bytes", true}});
}

TEST_CASE(
    "under a file size limit still, sheet and PNG sequence outputs fail and keep the old files",
    "[faults]") {
    TempDir dir;
    write_text(dir.path / "a.png", "OLD");
    write_text(dir.path / "sheet.html", "OLD");
    fs::create_directories(dir.path / "frames");
    write_text(dir.path / "frames/0001.png", "OLD");
    const std::string limit = "trap '' XFSZ; ulimit -f 4; ";  // 4 KiB: no still or sheet fits
    for (const std::string& command :
         {shardreel("still " + q(short_film()) + " --at bytes@1s -o " + q(dir.path / "a.png")),
          shardreel("still " + q(short_film()) + " --at bytes@1s -o " + q(dir.path / "a.svg")),
          shardreel("sheet " + q(short_film()) + " -o " + q(dir.path / "sheet.png")),
          shardreel("sheet " + q(short_film()) + " -o " + q(dir.path / "sheet.html")),
          shardreel("render " + q(short_film()) + " -q -o " + q(dir.path / "frames/%04d.png"))}) {
        const auto run = run_shell(limit + command);
        INFO(command << "\n" << run.err);
        CHECK(run.exit_code == 1);
        CHECK_THAT(run.err, Catch::Contains("cannot write " + dir.path.string()) &&
                                Catch::Contains("File too large"));
    }
    CHECK(slurp(dir.path / "a.png") == "OLD");
    CHECK(slurp(dir.path / "sheet.html") == "OLD");
    CHECK(slurp(dir.path / "frames/0001.png") == "OLD");  // the earlier sequence, whole
    CHECK(std::distance(fs::directory_iterator(dir.path / "frames"), fs::directory_iterator()) ==
          1);
    CHECK_FALSE(fs::exists(dir.path / "a.svg"));
    CHECK_FALSE(fs::exists(dir.path / "sheet.png"));
    CHECK_FALSE(fs::exists(dir.path / "sheet_files"));
    CHECK_FALSE(has_temp_files(dir.path));
}

TEST_CASE("an unwritable output directory fails before any frame is drawn", "[faults][may-skip]") {
    TempDir dir;
    const fs::path locked = dir.path / "locked", cache = dir.path / "cache";
    fs::create_directories(locked);
    const std::string render = shardreel(render_args(locked / "film.mp4", cache)) + " -q";
    const std::string still =
        shardreel("still " + q(short_film())) + " --at bytes@1s -o " + q(locked / "a.png");
    std::string render_err, still_err;
    if (geteuid() == 0) {  // root writes through permissions: make the directory read-only
        const auto run =
            in_mount_namespace("mount -t tmpfs -o ro tmpfs " + q(locked) + " || exit 99\n" +
                               render + "; echo render=$?\n" + still + "; echo still=$?\n");
        if (!run) return;
        const auto f = fields(run->out);
        CHECK(f.at("render") == "1");
        CHECK(f.at("still") == "1");
        render_err = still_err = run->err;
        CHECK_THAT(run->err, Catch::Contains(": Read-only file system"));
    } else {
        fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec);
        const auto r = run_shell(render), s = run_shell(still);
        fs::permissions(locked, fs::perms::owner_all);
        CHECK(r.exit_code == 1);
        CHECK(s.exit_code == 1);
        render_err = r.err, still_err = s.err;
        CHECK_THAT(r.err, Catch::Contains(": Permission denied"));
    }
    CHECK_THAT(render_err,
               Catch::Contains("cannot write " + (locked / "film.mp4").string() + ": "));
    CHECK_THAT(still_err, Catch::Contains("cannot write " + (locked / "a.png").string() + ": "));
    CHECK(segment_keys(cache).empty());  // refused before drawing
}

TEST_CASE("an output path under a regular file is refused with the reason", "[faults]") {
    TempDir dir;
    write_text(dir.path / "notes.txt", "not a directory");
    const auto run = run_cli(render_args(dir.path / "notes.txt/film.mp4", dir.path / "cache"));
    CHECK(run.exit_code == 1);
    CHECK_THAT(run.err, Catch::Contains("notes.txt") && Catch::Contains("Not a directory"));
    CHECK(segment_keys(dir.path / "cache").empty());
    CHECK(slurp(dir.path / "notes.txt") == "not a directory");
}

TEST_CASE("missing or broken fonts give a clear error and write nothing", "[faults]") {
    TempDir dir;
    const fs::path home = dir.path / "home", out = dir.path / "out";
    fs::create_directories(home / "fonts");
    const std::string env = "SHARDREEL_HOME=" + q(home) + " ";
    const std::string still =
        env + shardreel("still") + " " + q(short_film()) + " --at bytes@1s -o " + q(out / "a.png");
    const std::string render =
        env + shardreel("render") + " " + q(short_film()) + " -q -o " + q(out / "film.mp4");

    SECTION("missing") {
        for (const std::string& command : {still, render}) {
            const auto run = run_shell(command);
            CHECK(run.exit_code == 1);
            CHECK_THAT(run.err, Catch::Contains("cannot read font " +
                                                (home / "fonts/Inter-Regular.otf").string() +
                                                ": No such file or directory") &&
                                    Catch::Contains("SHARDREEL_HOME"));
        }
    }
    SECTION("not a font") {
        for (const char* name : {"Inter-Regular.otf", "Inter-Medium.otf", "Inter-SemiBold.otf"})
            write_text(home / "fonts" / name, "not an OpenType font");
        for (const std::string& command : {still, render}) {
            const auto run = run_shell(command);
            CHECK(run.exit_code == 1);
            CHECK_THAT(run.err, Catch::Contains("cannot load font ") &&
                                    Catch::Contains("FreeType rejected it"));
        }
    }
    CHECK_FALSE(fs::exists(out));
}

TEST_CASE("a chapter that --fps leaves without a frame is refused with its position", "[faults]") {
    TempDir dir;
    const fs::path board =
        render_test::short_variant(dir.path / "blink.yaml", "duration: 1s", "duration: 0.4s");
    const auto run = run_cli("render " + q(board) + " --fps 1 -o " + q(dir.path / "x.mp4"));
    CHECK(run.exit_code == 2);
    CHECK_THAT(run.err, Catch::Contains(board.string() + ":9:5: error: chapter 'intro' lasts 0.4s, "
                                                         "less than one frame at 1 fps (1s)"));
    CHECK_FALSE(fs::exists(dir.path / "x.mp4"));
    CHECK_FALSE(fs::exists(dir.path / "cache"));
    // At 2 fps the same chapter rounds to one frame and renders.
    CHECK(run_cli("render " + q(board) + " --fps 2 -q -o " + q(dir.path / "x.mp4")).exit_code == 0);
    CHECK(render::probe_video((dir.path / "x.mp4").string()).frame_count == 4);
}
