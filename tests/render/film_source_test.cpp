// The studio's film source: what it remembers after a load, and a save seen while it loads.
#include "render/studio/film_source.hpp"

#include <filesystem>
#include <fstream>

#include "tests/catch.hpp"
#include "tests/render/test_scene.hpp"

namespace fs = std::filesystem;
using Stamp = render::FilmSource::Stamp;

namespace {

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

const char* const kFilm =
    "shardreel: 1\n"
    "title: Watched\n"
    "video: {size: 320x180, fps: 10, narration: off}\n"
    "chapters:\n"
    "  - {id: bytes, kind: bytes_per_parameter, title: Bytes, duration: 1s}\n";

}  // namespace

TEST_CASE("after a load the source remembers each file as it was looked at before the load",
          "[studio]") {
    // The storyboard was empty when looked at; a save landed while the load read it.
    const std::vector<Stamp> looked{{"film.yaml", 100, 0, 7}};
    const std::vector<Stamp> after{{"film.yaml", 200, 900, 7}, {"music.ogg", 50, 4000, 9}};
    const std::vector<Stamp> kept = render::FilmSource::remember(looked, after);
    REQUIRE(kept.size() == 2);
    CHECK(kept[0] == looked[0]);  // so the next look (size 900) differs and loads the save
    CHECK(kept[1] == after[1]);   // a file the loaded film names for the first time
    CHECK(render::FilmSource::remember({}, after) == after);
}

TEST_CASE("a storyboard emptied and written again is loaded again, the error then gone",
          "[studio]") {
    const std::string dir = render_test::scratch_path("film-source");
    fs::create_directories(dir);
    const std::string path = dir + "/film.yaml";
    write(path, kFilm);
    render::FilmSource source(path, {});
    REQUIRE(source.refresh());
    CHECK(source.state().errors.empty());
    CHECK_FALSE(source.refresh());  // nothing changed

    write(path, "");
    REQUIRE(source.refresh());
    const render::FilmState empty = source.state();
    CHECK(empty.errors ==
          path + ":1:1: error: the storyboard is empty (expected 'shardreel: 1')\n");
    REQUIRE(empty.film);  // the last good film is kept
    CHECK(empty.film->board.title == "Watched");

    write(path, std::string(kFilm) + "\n");
    REQUIRE(source.refresh());
    CHECK(source.state().errors.empty());
    CHECK(source.state().version == empty.version + 1);
}
