// The films' sound segments in the cache (narrated_film): a second render reuses them, -j2 and
// --no-cache give the same bytes, a changed line re-encodes its chapter's alone, a damaged one is
// encoded again, pruning removes them, and --segment-only makes none.
#include <filesystem>
#include <map>

#include "render/film/director.hpp"
#include "render/film/segment_cache.hpp"
#include "render/sys/cancel.hpp"
#include "tests/catch.hpp"
#include "tests/render/cli.hpp"
#include "tests/render/narrated_film.hpp"

namespace fs = std::filesystem;
using namespace narrated_film;
using render::FilmJob;
using render_test::slurp;
using render_test::TempDir;

TEST_CASE("sound segments: a second render reuses them, -j2 and --no-cache give the same bytes",
          "[sound]") {
    TempDir dir;
    const FilmJob film = narrated(dir.path, "a.mp4");
    render_one(film, dir.path / "cache");
    FilmJob again = film;
    again.output = (dir.path / "b.mp4").string();
    const render::RenderReport warm = render_one(again, dir.path / "cache", 2);
    CHECK(warm.frames_drawn == 0);
    CHECK(sound_cached(warm) ==
          std::map<std::string, bool>{{"intro", true}, {"bytes", true}, {"outro", true}});
    CHECK(slurp(dir.path / "a.mp4") == slurp(dir.path / "b.mp4"));

    FilmJob other = film;
    other.output = (dir.path / "c.mp4").string();
    render_one(other, dir.path / "cache2", 2);  // a fresh cache, two workers
    CHECK(files_with(dir.path / "cache", ".m4a") == files_with(dir.path / "cache2", ".m4a"));
    for (const std::string& f : files_with(dir.path / "cache", ".m4a"))
        CHECK(slurp(dir.path / "cache" / f) == slurp(dir.path / "cache2" / f));
    CHECK(slurp(dir.path / "c.mp4") == slurp(dir.path / "a.mp4"));

    FilmJob fresh = film;
    fresh.output = (dir.path / "d.mp4").string();
    render::BatchOptions options;
    options.use_cache = false;
    render::CancelToken cancel;
    render::render_films({fresh}, fonts(), options, cancel, {});
    CHECK(slurp(dir.path / "d.mp4") == slurp(dir.path / "a.mp4"));
    CHECK_FALSE(fs::exists(dir.path / "cache" / "d.mp4.segments"));
}

TEST_CASE("changing one line re-encodes only its chapter's sound segment", "[sound]") {
    TempDir dir;
    render_one(narrated(dir.path, "a.mp4"), dir.path / "cache");
    const auto before = files_with(dir.path / "cache", ".m4a");
    const FilmJob changed = narrated(dir.path, "b.mp4", {1, 2, 33, 4, 5});  // "Three." differs
    const render::RenderReport report = render_one(changed, dir.path / "cache");
    CHECK(report.frames_drawn == 0);
    CHECK(sound_cached(report) ==
          std::map<std::string, bool>{{"intro", true}, {"bytes", false}, {"outro", true}});
    const auto after = files_with(dir.path / "cache", ".m4a");
    CHECK(after.size() == 4);  // the old 'bytes' segment is still there, for the old film
    for (const std::string& f : before) CHECK(after.count(f));
}

TEST_CASE("a damaged sound segment is encoded again - pruning removes sound segments too",
          "[sound]") {
    TempDir dir;
    const FilmJob film = narrated(dir.path, "a.mp4");
    render_one(film, dir.path / "cache");
    const fs::path cache = dir.path / "cache";
    const std::string victim = *files_with(cache, ".m4a").begin();
    fs::resize_file(cache / victim, fs::file_size(cache / victim) / 2);
    FilmJob again = film;
    again.output = (dir.path / "b.mp4").string();
    const render::RenderReport report = render_one(again, cache);
    int encoded = 0;
    for (const auto& [id, cached] : sound_cached(report)) encoded += !cached;
    CHECK(encoded == 1);
    CHECK(slurp(dir.path / "a.mp4") == slurp(dir.path / "b.mp4"));
    render::SegmentCache(cache.string()).prune(0, {});
    CHECK(files_with(cache, ".m4a").empty());
    CHECK(files_with(cache, ".json").empty());
}

TEST_CASE("render --segment-only draws pictures only - sound is made for whole films", "[sound]") {
    TempDir dir;
    const FilmJob film = narrated(dir.path, "a.mp4");
    render::BatchOptions options;
    options.cache_dir = (dir.path / "cache").string();
    options.segment_only = true;
    render::CancelToken cancel;
    const auto reports = render::render_films({film}, fonts(), options, cancel, {});
    CHECK(files_with(dir.path / "cache", ".mp4").size() == 3);
    CHECK(files_with(dir.path / "cache", ".m4a").empty());
    CHECK_FALSE(reports[0].chapters[0].sound_cached);
}
