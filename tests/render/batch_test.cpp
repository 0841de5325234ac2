// Batch regeneration end to end: the segment cache (hits, misses, corruption, pruning), -j,
// several storyboards per call, `jobs` commands run by xargs -P2, concurrent renders, SIGINT,
// and the assembled MP4's chapter markers and mov_text captions read back with libavformat.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "render/container/video_probe.hpp"
#include "tests/catch.hpp"
#include "tests/render/cli.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using render_test::has_temp_files;
using render_test::lines_of;
using render_test::q;
using render_test::run_cli;
using render_test::segment_keys;
using render_test::short_variant;
using render_test::slurp;
using render_test::TempDir;
using render_test::write_text;

namespace {

const fs::path kShort = render_test::short_film();

json render_json(const std::string& args, const fs::path& cwd = {}) {
    const auto run = run_cli("render " + args + " --json", cwd);
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    return json::parse(run.out);
}

std::map<std::string, bool> cached_by_id(const json& report) {
    std::map<std::string, bool> out;
    for (const json& c : report["chapters"]) out[c["id"]] = c["cached"];
    return out;
}

std::map<std::string, fs::file_time_type> snapshot(const fs::path& dir) {
    std::map<std::string, fs::file_time_type> out;
    for (const auto& e : fs::directory_iterator(dir))
        out[e.path().filename()] = e.last_write_time();
    return out;
}

int sh(const std::string& command) {
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST_CASE("a second render draws nothing and gives the same bytes as a fresh one", "[batch]") {
    TempDir dir;
    const json cold = render_json(q(kShort) + " -o " + q(dir.path / "a.mp4") + " -j1");
    CHECK(cold["frames_drawn"] == 38);
    for (const auto& [id, cached] : cached_by_id(cold)) CHECK_FALSE(cached);
    CHECK(segment_keys(dir.path / "cache").size() == 2);  // default cache: cache/ beside the output

    const json warm = render_json(q(kShort) + " -o " + q(dir.path / "b.mp4"));
    CHECK(warm["frames_drawn"] == 0);
    for (const auto& [id, cached] : cached_by_id(warm)) CHECK(cached);
    CHECK(slurp(dir.path / "a.mp4") == slurp(dir.path / "b.mp4"));
    CHECK(slurp(dir.path / "a.vtt") == slurp(dir.path / "b.vtt"));

    // The same segments drawn into another, empty cache are byte-identical to the cached ones.
    TempDir other;
    render_json(q(kShort) + " -o " + q(other.path / "c.mp4") + " --cache " +
                q(other.path / "segments"));
    REQUIRE(segment_keys(other.path / "segments") == segment_keys(dir.path / "cache"));
    for (const std::string& k : segment_keys(dir.path / "cache"))
        CHECK(slurp(dir.path / "cache" / (k + ".mp4")) ==
              slurp(other.path / "segments" / (k + ".mp4")));
    CHECK(slurp(other.path / "c.mp4") == slurp(dir.path / "a.mp4"));
}

TEST_CASE("render --no-cache draws every chapter and neither reads nor writes the cache",
          "[batch]") {
    TempDir dir;
    render_json(q(kShort) + " -o " + q(dir.path / "a.mp4"));
    const auto before = snapshot(dir.path / "cache");
    const json fresh = render_json(q(kShort) + " -o " + q(dir.path / "b.mp4") + " --no-cache");
    CHECK(fresh["frames_drawn"] == 38);
    for (const auto& [id, cached] : cached_by_id(fresh)) CHECK_FALSE(cached);
    CHECK(snapshot(dir.path / "cache") == before);
    CHECK(slurp(dir.path / "a.mp4") == slurp(dir.path / "b.mp4"));
    CHECK_FALSE(has_temp_files(dir.path));
    CHECK(run_cli("render " + q(kShort) + " --no-cache --segment-only").exit_code == 2);
    CHECK(run_cli("render " + q(kShort) + " --no-cache --cache " + q(dir.path)).exit_code == 2);
}

TEST_CASE("render -j1 and -j2 give byte-identical films and segments", "[batch]") {
    TempDir dir;
    render_json(q(kShort) + " -o " + q(dir.path / "one.mp4") + " -j1 --cache " +
                q(dir.path / "c1"));
    render_json(q(kShort) + " -o " + q(dir.path / "two.mp4") + " -j2 --cache " +
                q(dir.path / "c2"));
    CHECK(slurp(dir.path / "one.mp4") == slurp(dir.path / "two.mp4"));
    REQUIRE(segment_keys(dir.path / "c1") == segment_keys(dir.path / "c2"));
    for (const std::string& k : segment_keys(dir.path / "c1"))
        CHECK(slurp(dir.path / "c1" / (k + ".mp4")) == slurp(dir.path / "c2" / (k + ".mp4")));
}

TEST_CASE("changing one chapter's parameter re-renders only that chapter", "[batch]") {
    TempDir dir;
    const std::string cache = " --cache " + q(dir.path / "cache");
    render_json(q(kShort) + " -o " + q(dir.path / "a.mp4") + cache);
    const fs::path changed =
        short_variant(dir.path / "short.yaml", "precision: fp8", "precision: fp32");
    const json report = render_json(q(changed) + " -o " + q(dir.path / "b.mp4") + cache);
    CHECK(cached_by_id(report) == std::map<std::string, bool>{{"intro", true}, {"bytes", false}});
    CHECK(report["frames_drawn"] == 23);
    CHECK(slurp(dir.path / "a.mp4") != slurp(dir.path / "b.mp4"));
    // Another video setting is another key for every chapter.
    const json light =
        render_json(q(kShort) + " --size 320x180 -o " + q(dir.path / "c.mp4") + cache);
    CHECK(light["frames_drawn"] == 38);
}

TEST_CASE("a chapter renamed, moved down its file or reordered is a hit on the same record",
          "[batch]") {
    TempDir dir;
    const std::string cache = " --cache " + q(dir.path / "cache");
    render_json(q(kShort) + " -o " + q(dir.path / "a.mp4") + cache);
    std::map<std::string, std::string> records;
    for (const std::string& k : segment_keys(dir.path / "cache"))
        records[k] = slurp(dir.path / "cache" / (k + ".json"));

    std::string text = slurp(kShort);
    text.replace(text.find("id: bytes"), 9, "id: costs");  // ids are not drawn
    text.replace(text.find("chapters:"), 9, "# moved down\n\nchapters:");
    write_text(dir.path / "renamed.yaml", text);
    const json renamed =
        render_json(q(dir.path / "renamed.yaml") + " -o " + q(dir.path / "b.mp4") + cache);
    CHECK(renamed["frames_drawn"] == 0);
    CHECK(cached_by_id(renamed) == std::map<std::string, bool>{{"intro", true}, {"costs", true}});
    CHECK(slurp(dir.path / "a.mp4") == slurp(dir.path / "b.mp4"));  // markers use the titles
    for (const auto& [k, record] : records)
        CHECK(slurp(dir.path / "cache" / (k + ".json")) == record);

    const std::size_t bytes_at = text.find("  - id: costs");
    const std::string bytes_chapter = text.substr(bytes_at);
    text.erase(bytes_at);
    text.insert(text.find("  - id: intro"), bytes_chapter);
    write_text(dir.path / "reordered.yaml", text);
    const json reordered =
        render_json(q(dir.path / "reordered.yaml") + " -o " + q(dir.path / "c.mp4") + cache);
    CHECK(reordered["frames_drawn"] == 0);
    CHECK(reordered["chapters"][0]["id"] == "costs");
    CHECK(segment_keys(dir.path / "cache").size() == 2);
}

TEST_CASE("a truncated or altered segment is detected and re-rendered", "[batch]") {
    TempDir dir;
    render_json(q(kShort) + " -o " + q(dir.path / "a.mp4"));
    const fs::path cache = dir.path / "cache";
    std::vector<fs::path> segments;
    for (const std::string& k : segment_keys(cache)) segments.push_back(cache / (k + ".mp4"));
    REQUIRE(segments.size() == 2);

    fs::resize_file(segments[0], fs::file_size(segments[0]) / 2);  // truncated
    std::string bytes = slurp(segments[1]);
    bytes[bytes.size() / 2] ^= 0x5a;  // one byte altered, size unchanged
    write_text(segments[1], bytes);

    const json report = render_json(q(kShort) + " -o " + q(dir.path / "b.mp4"));
    CHECK(report["frames_drawn"] == 38);
    CHECK(slurp(dir.path / "a.mp4") == slurp(dir.path / "b.mp4"));
    // Repaired: the next run hits both.
    CHECK(render_json(q(kShort) + " -o " + q(dir.path / "c.mp4"))["frames_drawn"] == 0);
    // A missing record is a miss too.
    fs::remove(cache / (*segment_keys(cache).begin() + ".json"));
    CHECK(render_json(q(kShort) + " -o " + q(dir.path / "d.mp4"))["frames_drawn"] != 0);
}

TEST_CASE("the cache is pruned to its limit, least recently used first", "[batch]") {
    TempDir dir;
    const std::string cache = " --cache " + q(dir.path / "cache");
    const auto render_keys = [&](const fs::path& storyboard, const std::string& extra = "") {
        const auto before = segment_keys(dir.path / "cache");
        render_json(q(storyboard) + " -o " + q(dir.path / "x.mp4") + cache + extra);
        std::set<std::string> added;
        for (const auto& k : segment_keys(dir.path / "cache"))
            if (!before.count(k)) added.insert(k);
        return added;
    };
    const fs::path b = short_variant(dir.path / "b.yaml", "title: Short film", "title: Film B");
    const fs::path c = short_variant(dir.path / "c.yaml", "title: Short film", "title: Film C");
    const auto a_keys = render_keys(kShort);  // intro A, bytes (shared by all three)
    const auto b_keys = render_keys(b);       // intro B
    REQUIRE(a_keys.size() == 2);
    REQUIRE(b_keys.size() == 1);
    render_keys(kShort);  // touches A's segments: B's intro is now the least recently used

    std::uintmax_t total = 0;  // segments and their records (not first/: first keys' records)
    for (const auto& e : fs::directory_iterator(dir.path / "cache"))
        if (e.is_regular_file()) total += e.file_size();
    // Room for what is there plus a little: C's new intro forces exactly one segment out, B's.
    const std::uintmax_t limit = total + 2000;
    const auto c_keys = render_keys(c, " --cache-limit " + std::to_string(limit) + "B");
    const auto left = segment_keys(dir.path / "cache");
    CHECK(left.count(*b_keys.begin()) == 0);
    for (const auto& k : a_keys) CHECK(left.count(k) == 1);
    for (const auto& k : c_keys) CHECK(left.count(k) == 1);
    // A limit below this film's own segments keeps them (they were just used) and drops the rest.
    render_keys(c, " --cache-limit 1KB");
    CHECK(segment_keys(dir.path / "cache").size() == 2);
    CHECK(run_cli("render " + q(kShort) + " --cache-limit lots").exit_code == 2);
}

TEST_CASE("several storyboards in one call, or a directory of them, share the cache", "[batch]") {
    TempDir dir;
    fs::create_directory(dir.path / "boards");
    fs::copy_file(kShort, dir.path / "boards/a.yaml");
    short_variant(dir.path / "boards/b.yaml", "title: Short film", "title: Another film");
    const json both =
        render_json(q(dir.path / "boards/a.yaml") + " " + q(dir.path / "boards/b.yaml"), dir.path);
    REQUIRE(both.is_array());
    REQUIRE(both.size() == 2);
    CHECK(both[0]["frames_drawn"] == 38);
    CHECK(both[1]["frames_drawn"] == 15);  // its bytes chapter is a's, drawn once
    CHECK(cached_by_id(both[1]) == std::map<std::string, bool>{{"intro", false}, {"bytes", true}});
    CHECK(segment_keys(dir.path / "out/cache").size() == 3);
    CHECK(render::probe_video((dir.path / "out/b.mp4").string()).frame_count == 38);

    const json again = render_json(q(dir.path / "boards"), dir.path);  // the directory: a, b
    REQUIRE(again.size() == 2);
    CHECK(again[0]["output"] == "out/a.mp4");
    CHECK(again[0]["frames_drawn"] == 0);
    CHECK(again[1]["frames_drawn"] == 0);
    CHECK(run_cli("render " + q(dir.path / "out/cache")).exit_code == 2);  // no *.yaml in it
}

TEST_CASE("jobs prints one command per pending segment, and run by xargs -P2 they fill the cache",
          "[batch]") {
    TempDir dir;
    fs::copy_file(kShort, dir.path / "short.yaml");
    const auto listed = run_cli("jobs short.yaml --cache shared", dir.path);
    REQUIRE(listed.exit_code == 0);
    const std::string bin = SHARDREEL_BINARY " render short.yaml --only ";
    CHECK(lines_of(listed.out) ==
          std::vector<std::string>{bin + "intro --cache shared --segment-only --quiet",
                                   bin + "bytes --cache shared --segment-only --quiet"});

    const std::string jobs = "'" SHARDREEL_BINARY "' jobs short.yaml --cache shared";
    REQUIRE(sh("cd " + q(dir.path) + " && " + jobs + " | xargs -P2 -I{} sh -c {}") == 0);
    CHECK(segment_keys(dir.path / "shared").size() == 2);
    CHECK(run_cli("jobs short.yaml --cache shared", dir.path).out.empty());
    CHECK_FALSE(fs::exists(dir.path / "out"));  // --segment-only assembles nothing

    const json final_run = render_json("short.yaml --cache shared -o film.mp4", dir.path);
    CHECK(final_run["frames_drawn"] == 0);
    TempDir fresh;
    render_json(q(kShort) + " -o " + q(fresh.path / "film.mp4"));
    CHECK(slurp(dir.path / "film.mp4") == slurp(fresh.path / "film.mp4"));
    // Video overrides reach the commands, and a different size is pending again.
    const auto low = run_cli("jobs short.yaml --cache shared --size 320x180", dir.path);
    CHECK(lines_of(low.out) ==
          std::vector<std::string>{
              bin + "intro --cache shared --segment-only --quiet --size 320x180",
              bin + "bytes --cache shared --segment-only --quiet --size 320x180"});
}

TEST_CASE("two concurrent renders of one storyboard into one cache both succeed identically",
          "[batch]") {
    TempDir dir;
    const std::string render = "'" SHARDREEL_BINARY "' render " + q(kShort) + " -q -j2 --cache " +
                               q(dir.path / "cache") + " -o ";
    REQUIRE(sh("cd " + q(dir.path) + " && { (" + render + "a.mp4; echo $? > rc_a) & (" + render +
               "b.mp4; echo $? > rc_b) & wait; }") == 0);
    CHECK(slurp(dir.path / "rc_a") == "0\n");
    CHECK(slurp(dir.path / "rc_b") == "0\n");
    CHECK(slurp(dir.path / "a.mp4") == slurp(dir.path / "b.mp4"));
    CHECK_FALSE(has_temp_files(dir.path));
    CHECK(render_json(q(kShort) + " -o " + q(dir.path / "c.mp4"))["frames_drawn"] == 0);
}

TEST_CASE("the film carries one chapter marker per chapter and the captions as mov_text",
          "[batch]") {
    TempDir dir;
    // Untitled chapters are marked with their id.
    const fs::path untitled = short_variant(dir.path / "s.yaml", "    title: Short film\n", "");
    render_json(q(untitled) + " -o " + q(dir.path / "s.mp4"));
    const render::VideoInfo info = render::probe_video((dir.path / "s.mp4").string());
    CHECK(info.frame_count == 38);
    REQUIRE(info.chapters.size() == 2);
    CHECK(info.chapters[0].title == "intro");
    CHECK(info.chapters[0].start_seconds == 0);
    CHECK(info.chapters[0].end_seconds == Approx(1.0));
    CHECK(info.chapters[1].title == "Bytes");
    CHECK(info.chapters[1].start_seconds == Approx(1.0));  // frame 15 at 15 fps
    CHECK(info.chapters[1].end_seconds == Approx(2.533).margin(0.001));
    REQUIRE(info.subtitles.size() == 1);
    CHECK(info.subtitles[0].codec == "mov_text");
    CHECK(info.subtitles[0].language == "eng");
    const auto& cues = info.subtitles[0].cues;
    REQUIRE(cues.size() == 3);
    CHECK(cues[0].text == "A title card.");
    CHECK(cues[1].text == "Sixteen bytes each.");
    CHECK(cues[1].start_seconds == Approx(1.0));
    CHECK(cues[2].text == "Then fifteen.");
    CHECK(cues[2].start_seconds == Approx(1.6));  // 0.6 s into bytes: frame 24
    CHECK(cues[2].end_seconds == Approx(2.533).margin(0.001));
}

TEST_CASE(
    "SIGINT or SIGTERM mid-render exits 130, leaves no partial file, and keeps finished segments",
    "[batch]") {
    const int sig = GENERATE(SIGINT, SIGTERM);
    INFO("signal " << sig);
    TempDir dir;
    const fs::path board = short_variant(dir.path / "long.yaml", "duration: 1.5s", "duration: 6s");
    const fs::path cache = dir.path / "cache", out = dir.path / "long.mp4";
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        execl(SHARDREEL_BINARY, "shardreel", "render", board.c_str(), "-j1", "-q", "--fps", "60",
              "--cache", cache.c_str(), "-o", out.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    // Interrupt once the first chapter's segment is recorded, while the second is being drawn.
    render_test::file_appears(
        cache, [](const std::string& f) { return f.ends_with(".json"); }, 5000);
    kill(pid, sig);
    int status = 0;
    waitpid(pid, &status, 0);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 130);
    CHECK_FALSE(fs::exists(out));
    CHECK_FALSE(has_temp_files(dir.path));
    CHECK(segment_keys(cache).size() == 1);

    const json resumed = render_json(q(board) + " --fps 60 --cache " + q(cache) + " -o " + q(out));
    CHECK(cached_by_id(resumed) == std::map<std::string, bool>{{"intro", true}, {"bytes", false}});
    const json fresh =
        render_json(q(board) + " --fps 60 --no-cache -o " + q(dir.path / "fresh.mp4"));
    CHECK(slurp(out) == slurp(dir.path / "fresh.mp4"));
}

TEST_CASE("outputs other than MP4 are drawn straight through their sink, without the cache",
          "[batch]") {
    TempDir dir;
    const json report = render_json(q(kShort) + " -o " + q(dir.path / "s.gif"));
    CHECK(report["frames_drawn"] == 38);
    CHECK(fs::exists(dir.path / "s.gif"));
    CHECK(fs::exists(dir.path / "s.vtt"));
    CHECK_FALSE(fs::exists(dir.path / "cache"));
}
