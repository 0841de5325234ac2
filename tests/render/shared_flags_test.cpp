// The flags the media commands share (render/cli/media_flags.hpp): each command that takes one
// registers it with the same help, and it does the same there: -q silences the summary, --json
// prints one report naming the file written, --quality and --size give the frame size, --lang
// and a bad --size or --quality are refused with the same line (exit 2, nothing written), and
// --cache is where what the command caches goes.
#include <cstdint>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "render/cli/media_flags.hpp"
#include "tests/catch.hpp"
#include "tests/render/cli.hpp"
#include "tests/render/cli_help.hpp"

namespace fs = std::filesystem;
using namespace render_test;

namespace {

// Which shared flags each media command takes (by long name).
const std::map<std::string, std::set<std::string>> kTakes = {
    {"render", {"--quiet", "--json", "--lang", "--size", "--quality", "--cache"}},
    {"page", {"--quiet", "--json", "--lang", "--size", "--quality", "--cache"}},
    {"still", {"--quiet", "--json", "--lang", "--size", "--quality", "--cache"}},
    {"sheet", {"--quiet", "--json", "--lang", "--size", "--quality", "--cache"}},
    {"jobs", {"--quiet", "--lang", "--size", "--quality", "--cache"}},
    {"studio", {"--lang", "--size", "--cache"}},
    {"calculator", {"--lang"}},
};

// The long name of a shared flag ("-q,--quiet": "--quiet").
std::string long_name(const render::SharedFlag& f) { return f.names.substr(f.names.find("--")); }

// Each command writing short.yaml's output into dir, given the flags `extra` (shell text).
std::map<std::string, std::string> writers(const fs::path& dir) {
    const std::string board = q(short_film());
    return {
        {"render", "render " + board + " -o " + q(dir / "film.mp4") + " --cache " + q(dir / "c")},
        {"page", "page " + board + " -o " + q(dir / "page") + " --cache " + q(dir / "c")},
        {"still", "still " + board + " --at bytes@1s -o " + q(dir / "still.png")},
        {"sheet", "sheet " + board + " -o " + q(dir / "sheet.html")},
    };
}

// A PNG's width and height, from its IHDR chunk.
std::pair<int, int> png_size(const fs::path& png) {
    std::ifstream in(png, std::ios::binary);
    unsigned char head[24] = {};
    in.read(reinterpret_cast<char*>(head), sizeof head);
    const auto be32 = [&](int at) {
        std::uint32_t v = 0;
        for (int i = 0; i < 4; ++i) v = v << 8 | head[at + i];
        return static_cast<int>(v);
    };
    return {be32(16), be32(20)};
}

std::size_t files_under(const fs::path& dir) {
    std::size_t n = 0;
    if (fs::exists(dir))
        for ([[maybe_unused]] const auto& entry : fs::recursive_directory_iterator(dir)) ++n;
    return n;
}

}  // namespace

TEST_CASE("each media command takes the shared flags it lists, each with the one help", "[flags]") {
    for (const auto& [command, takes] : kTakes) {
        const auto options = help_options(command);
        for (const render::SharedFlag& f : render::shared_flags()) {
            INFO(command << " " << f.names);
            const bool many = !f.many.empty() && (command == "render" || command == "jobs");
            REQUIRE(options.count(long_name(f)) == takes.count(long_name(f)));
            if (!takes.count(long_name(f))) continue;
            CHECK(options.at(long_name(f)) == (many ? f.many : f.help));
            if (f.names.starts_with("-q,")) CHECK(options.count("-q") == 1);
        }
    }
}

TEST_CASE("the quiet flag silences the summary and --json prints one report naming the file",
          "[flags]") {
    for (const std::string command : {"render", "page", "still", "sheet"}) {
        INFO(command);
        TempDir dir;
        const std::string run = writers(dir.path).at(command);
        const CliRun plain = run_cli(run);
        REQUIRE(plain.exit_code == 0);
        CHECK(lines_matching(plain.err, "shardreel: wrote .*").size() == 1);
        CHECK(plain.out.empty());
        const CliRun quiet = run_cli(run + " -q");
        REQUIRE(quiet.exit_code == 0);
        CHECK(quiet.err.empty());
        CHECK(quiet.out.empty());
        const CliRun json = run_cli(run + " --json");
        REQUIRE(json.exit_code == 0);
        CHECK(json.err.empty());
        REQUIRE(lines_of(json.out).size() == 1);
        const auto report = nlohmann::json::parse(json.out);
        CHECK(fs::is_regular_file(report.at("output").get<std::string>()));
    }
}

TEST_CASE("jobs -q prints no note when every segment is cached", "[flags]") {
    TempDir dir;
    REQUIRE(run_cli(writers(dir.path).at("render")).exit_code == 0);
    const std::string jobs = "jobs " + q(short_film()) + " --cache " + q(dir.path / "c");
    const CliRun plain = run_cli(jobs);
    REQUIRE(plain.exit_code == 0);
    CHECK(plain.err.starts_with("shardreel: every segment is in the cache"));
    const CliRun quiet = run_cli(jobs + " -q");
    REQUIRE(quiet.exit_code == 0);
    CHECK(quiet.err.empty());
    CHECK(quiet.out.empty());
}

TEST_CASE("the flags --quality and --size give still and sheet the frame size they give a film",
          "[flags]") {
    TempDir dir;
    const std::string board = q(short_film());
    const std::pair<std::string, std::pair<int, int>> cases[] = {
        {"--quality low", {854, 480}},
        {"--size 320x180", {320, 180}},
        {"--quality low --size 320x180", {320, 180}}};
    for (const auto& [flags, size] : cases) {
        INFO(flags);
        REQUIRE(
            run_cli("still " + board + " --at bytes@1s -o " + q(dir.path / "s.png") + " " + flags)
                .exit_code == 0);
        CHECK(png_size(dir.path / "s.png") == size);
        fs::remove_all(dir.path / "sheet_files");
        REQUIRE(run_cli("sheet " + board + " -o " + q(dir.path / "sheet.html") + " " + flags)
                    .exit_code == 0);
        for (const auto& still : fs::directory_iterator(dir.path / "sheet_files"))
            CHECK(png_size(still.path()) == size);
    }
    // Without either, the HTML sheet's stills stay 960x540.
    fs::remove_all(dir.path / "sheet_files");
    REQUIRE(run_cli("sheet " + board + " -o " + q(dir.path / "sheet.html")).exit_code == 0);
    CHECK(png_size(fs::directory_iterator(dir.path / "sheet_files")->path()) ==
          std::pair{960, 540});
}

TEST_CASE("a bad --size, --quality or --lang is refused with the same line by every command",
          "[flags]") {
    const std::pair<std::string, std::string> bad[] = {
        {"--size 3x3", "shardreel: error: video size must be between 16x16 and 7680x4320, got 3x3"},
        {"--quality best",
         "shardreel: error: unknown quality 'best' (expected low, medium, high or 4k)"},
        {"--lang xx",
         "shardreel: error: --lang: unknown language 'xx' (did you mean 'xh'? a tag "
         "starts with an ISO 639 code such as en, de, ar, ja or hi)"}};
    for (const auto& [flag, line] : bad)
        for (const auto& [command, takes] : kTakes) {
            const std::string name = flag.substr(0, flag.find(' '));
            // The studio is refused a bad --lang before it listens; its size is checked later.
            if (!takes.count(name) || (command == "studio" && name != "--lang")) continue;
            INFO(command << " " << flag);
            TempDir dir;
            auto runs = writers(dir.path);
            runs["jobs"] = "jobs " + q(short_film()) + " --cache " + q(dir.path / "c");
            runs["studio"] = "studio " + q(short_film()) + " --port 0";
            runs["calculator"] = "calculator -o " + q(dir.path / "calculator");
            const CliRun run = run_cli(runs.at(command) + " " + flag, dir.path);
            CHECK(run.exit_code == 2);
            CHECK(run.err == line + "\n");
            CHECK(run.out.empty());
            CHECK(files_under(dir.path) == 0);
        }
}

TEST_CASE(
    "the flag --cache is where render, page and jobs keep segments and still and sheet speech",
    "[flags]") {
    TempDir dir;
    for (const std::string command : {"render", "page"}) {
        INFO(command);
        fs::remove_all(dir.path / "c");
        REQUIRE(run_cli(writers(dir.path).at(command)).exit_code == 0);
        CHECK_FALSE(segment_keys(dir.path / "c").empty());
        CHECK_FALSE(fs::exists(dir.path / "cache"));  // where it goes without --cache
    }
    const CliRun jobs = run_cli("jobs " + q(short_film()) + " --cache " + q(dir.path / "new"));
    REQUIRE(jobs.exit_code == 0);
    REQUIRE(lines_of(jobs.out).size() == 2);
    for (const std::string& line : lines_of(jobs.out))
        CHECK(line.find(" --cache " + (dir.path / "new").string()) != std::string::npos);
    // A narrated storyboard's lines are spoken to time it: into --cache's speech/.
    const fs::path narrated = fs::path(SHARDREEL_SOURCE_DIR) / "tests/storyboards/good/spoken.yaml";
    for (const std::string command : {"still", "sheet"}) {
        INFO(command);
        const fs::path cache = dir.path / ("speech-" + command);
        const std::string at = command == "still" ? " --at bytes@end" : "";
        REQUIRE(run_cli(command + " " + q(narrated) + at + " -o " + q(dir.path / "n.png") +
                        " --cache " + q(cache))
                    .exit_code == 0);
        CHECK(files_under(cache / "speech") > 0);
    }
}
