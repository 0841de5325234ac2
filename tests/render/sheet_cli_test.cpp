// `shardreel sheet`: the PNG grid's size, the HTML page with every chapter and its stills, the
// shots chosen at beats and chapter ends, and the exit codes.
#include <cairo.h>

#include <filesystem>
#include <set>

#include "render/inputs/storyboard_inputs.hpp"
#include "render/sheet/contact_sheet.hpp"
#include "tests/catch.hpp"
#include "tests/render/cli.hpp"
#include "tests/render/markup.hpp"

namespace fs = std::filesystem;
using render_test::element;
using render_test::Element;
using render_test::elements;
using render_test::run_cli;
using render_test::slurp;
using render_test::TempDir;

namespace {

const std::string kShort = SHARDREEL_SOURCE_DIR "/tests/storyboards/good/short.yaml";

story::Storyboard short_board() {
    std::ostringstream err;
    auto board = render::load_storyboard(kShort, err);
    REQUIRE(board);
    return *board;
}

std::pair<int, int> png_size(const std::string& path) {
    cairo_surface_t* s = cairo_image_surface_create_from_png(path.c_str());
    const std::pair<int, int> size{cairo_image_surface_get_width(s),
                                   cairo_image_surface_get_height(s)};
    cairo_surface_destroy(s);
    return size;
}

}  // namespace

TEST_CASE("sheet shots: each beat once it settles, and each chapter's end", "[sheet]") {
    // short.yaml at 15 fps: intro (15 frames) beat at 0s; bytes (23 frames) beats at 0s and 0.6s
    // over 0.4s. A beat's shot is at + over + 0.5 s, but before the next beat.
    const auto shots = render::pick_shots(short_board(), 15, 0);
    std::vector<std::pair<std::size_t, int>> got;
    for (const auto& s : shots) got.emplace_back(s.chapter, s.frame);
    CHECK(got == std::vector<std::pair<std::size_t, int>>{{0, 8}, {0, 14}, {1, 8}, {1, 22}});
    CHECK(shots[2].film_frame == 23);
    CHECK(shots[2].caption == "Sixteen bytes each.");
    CHECK(shots[3].caption == "Then fifteen.");
    CHECK(render::film_timestamp(shots[3].film_frame, 15) == "0:02.5");

    const auto every = render::pick_shots(short_board(), 15, 0.5);
    CHECK(every.size() == 2 + 1 + 3 + 1);  // 0, 0.5 s and the end; 0, 0.5, 1 s and the end
}

TEST_CASE("sheet writes a PNG grid of four columns", "[sheet][cli]") {
    TempDir dir;
    const std::string out = (dir.path / "short-sheet.png").string();
    const auto r = run_cli("sheet '" + kShort + "' -o '" + out + "'");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const render::SheetLayout layout;
    CHECK(png_size(out) == std::pair<int, int>{layout.width(), layout.height(4)});
    CHECK(layout.width() == 2 * 24 + 4 * 480 + 3 * 16);
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir.path))
        names.push_back(e.path().filename().string());
    CHECK(names == std::vector<std::string>{"short-sheet.png"});
}

TEST_CASE("sheet defaults to out/<stem>-sheet.png", "[sheet][cli]") {
    TempDir dir;
    const auto r = run_cli("sheet '" + kShort + "' --every 1s", dir.path);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(png_size((dir.path / "out/short-sheet.png").string()).first ==
          render::SheetLayout{}.width());
}

TEST_CASE("sheet writes an HTML page with every chapter, its stills and captions", "[sheet][cli]") {
    TempDir dir;
    const std::string out = (dir.path / "review.html").string();
    const auto r = run_cli("sheet '" + kShort + "' -o '" + out + "' --size 480x270");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const std::string html = slurp(out);
    std::vector<std::string> sections;
    for (const Element& s : elements(html, "section")) sections.push_back(s.attr("id"));
    CHECK(sections == std::vector<std::string>{"intro", "bytes"});
    // Each still: its id, the image it shows, its film time, chapter time and caption.
    std::vector<std::string> figures;
    for (const Element& f : elements(html, "figure"))
        figures.push_back(f.attr("id") + " " + element(f.inner, "img").attr("src") + " " +
                          element(f.inner, "figcaption").text());
    CHECK(figures ==
          std::vector<std::string>{
              "intro@8f review_files/01-intro-00008.png 0:00.5 intro@0.53sA title card.",
              "intro@14f review_files/01-intro-00014.png 0:00.9 intro@0.93sA title card.",
              "bytes@8f review_files/02-bytes-00008.png 0:01.5 bytes@0.53sSixteen bytes each.",
              "bytes@22f review_files/02-bytes-00022.png 0:02.5 bytes@1.47sThen fifteen."});
    std::set<std::string> stills;
    for (const auto& e : fs::directory_iterator(dir.path / "review_files"))
        stills.insert("review_files/" + e.path().filename().string());
    std::set<std::string> shown;
    for (const Element& img : elements(html, "img")) shown.insert(img.attr("src"));
    CHECK(stills == shown);  // every still written is shown, and only those
    CHECK(stills.size() == 4);
    CHECK(png_size((dir.path / "review_files/02-bytes-00022.png").string()) ==
          std::pair<int, int>{480, 270});
    const auto again = run_cli("sheet '" + kShort + "' -o '" + out + "' --size 480x270");
    CHECK(again.exit_code == 0);
    std::size_t entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path)) ++entries;
    CHECK(entries == 2);  // review.html and review_files/, nothing temporary left
}

TEST_CASE("sheet usage errors exit 2 and write nothing", "[sheet][cli]") {
    TempDir dir;
    CHECK(run_cli("sheet '" + kShort + "' -o x.gif", dir.path).exit_code == 2);
    CHECK(run_cli("sheet '" + kShort + "' --every 0s", dir.path).exit_code == 2);
    CHECK(run_cli("sheet '" + kShort + "' --every soon", dir.path).exit_code == 2);
    CHECK(run_cli("sheet " SHARDREEL_SOURCE_DIR "/tests/storyboards/bad/unknown_key.yaml", dir.path)
              .exit_code == 2);
    CHECK(fs::is_empty(dir.path));
    const auto r = run_cli("sheet '" + kShort + "' -o /proc/nope/sheet.png", dir.path);
    CHECK(r.exit_code == 1);
}
