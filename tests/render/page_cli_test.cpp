// `shardreel page` through the CLI: the files it writes, the film read back with libav, figures
// merged for both colour schemes, the figure cache, and bad input (exit 2, nothing written).
// The page in a real browser is tests/render/page_test.mjs (ctest "page: chromium loads it ...").
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>

#include "render/container/video_probe.hpp"
#include "render/page/figures.hpp"
#include "tests/render/cli.hpp"
#include "tests/story/expectations.hpp"

namespace fs = std::filesystem;
using namespace render_test;

namespace {

const fs::path kExplore = fs::path(SHARDREEL_SOURCE_DIR) / "tests/storyboards/good/explore.yaml";

nlohmann::json page_json(const std::string& storyboard, const fs::path& dir) {
    const auto run = run_cli("page " + q(storyboard) + " -o " + q(dir / "page") + " --json", dir);
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    return nlohmann::json::parse(run.out);
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto i = text.find(what); i != std::string::npos; i = text.find(what, i + 1)) ++n;
    return n;
}

}  // namespace

TEST_CASE("page writes the film, its tracks, a poster and one self-contained index.html") {
    TempDir tmp;
    const auto report = page_json(kExplore.string(), tmp.path);
    const fs::path page = tmp.path / "page";
    for (const char* f : {"index.html", "film.mp4", "film.vtt", "chapters.vtt", "poster.png"})
        CHECK(fs::exists(page / f));
    CHECK(fs::exists(tmp.path / "cache/figures"));  // beside the page, never inside it
    CHECK_FALSE(fs::exists(page / "cache"));

    const auto video = render::probe_video((page / "film.mp4").string());
    CHECK(video.width == 640);
    CHECK(video.duration_seconds == Approx(10).margin(0.01));
    CHECK(video.chapters.size() == 3);

    const std::string vtt = slurp(page / "chapters.vtt");
    CHECK(vtt.starts_with("WEBVTT"));
    CHECK(line_after(vtt, "00:00:03.000 --> 00:00:07.000") == "The pipeline bubble");

    const std::string html = slurp(page / "index.html");
    CHECK(count(html, "<section class=\"chapter\"") == 3);
    CHECK(count(html, "<template id=\"fig-bubble-") == 4);  // 5 values, the written one inline
    CHECK(count(html, "<template id=\"fig-zero-") == 2);
    CHECK(html.find("type=\"range\" id=\"x-bubble-micro_batches\"") != std::string::npos);
    CHECK(html.find("name=\"x-zero-precision\" value=\"fp8-mixed\"") != std::string::npos);
    CHECK(html.find("<math") != std::string::npos);
    // The tracks inline (file:// pages may not load a track file), percent-encoded.
    CHECK(html.find("kind=\"chapters\" src=\"data:text/vtt;charset=utf-8,WEBVTT%0A%0A1%0A00:00:"
                    "00.000%20--%3E%2000:00:03.000%0ABytes%20per%20parameter%0A") !=
          std::string::npos);
    CHECK(html.find("kind=\"captions\" src=\"data:text/vtt;charset=utf-8,WEBVTT") !=
          std::string::npos);
    CHECK(html.find("Then every stage but one waits for it.") != std::string::npos);
    CHECK(html.find("src=\"http") == std::string::npos);  // no external request
    CHECK(html.find("href=\"http") == std::string::npos);
    CHECK(count(html, " id=\"glyph") == 0);  // every glyph moved to the page's sheet
    CHECK(report["figures"] == 1 + 5 + 3);   // each variant is a figure
    CHECK(report["page_bytes"].get<long long>() < 3 * 1024 * 1024);
}

TEST_CASE("a re-run draws no figure - a changed chapter redraws its own figures only") {
    TempDir tmp;
    CHECK(page_json(kExplore.string(), tmp.path)["figures_drawn"] == 9);
    const auto again = page_json(kExplore.string(), tmp.path);
    CHECK(again["figures_drawn"] == 0);
    CHECK(again["film_frames_drawn"] == 0);
    std::string text = slurp(kExplore);
    text.erase(text.find("    figure: end\n"), 16);  // zero's figure moves to its beat (0 s)
    text.replace(text.find("Shard what every GPU repeats."), 5, "Split");
    write_text(tmp.path / "changed.yaml", text);
    const auto changed = page_json((tmp.path / "changed.yaml").string(), tmp.path);
    CHECK(changed["figures_drawn"] == 3);  // zero's three precisions, nothing else
}

TEST_CASE("both themes become one figure whose colours are variables") {
    const std::string dark = R"SVG(<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" width="10px" height="10px" viewBox="0 0 10 10">
<style>
.s1{stroke:none;}
.s2{fill:#0e1117;}
</style>
<defs>
<g>
<symbol overflow="visible" id="glyph0-1">
<path class="s1" d="M 1 1 L 2 2 Z"/>
</symbol>
</g>
<clipPath id="clip1"><rect x="0" y="0" width="5" height="5"/></clipPath>
</defs>
<g id="surface1" clip-path="url(#clip1)"><rect style="fill:#e6edf3;" x="0" y="0" width="1" height="1"/>
<use xlink:href="#glyph0-1" x="1" y="1" class="s2"/></g>
</svg>)SVG";
    std::string light = dark;
    light.replace(light.find("#0e1117"), 7, "#ffffff");
    light.replace(light.find("#e6edf3"), 7, "#1f2328");
    render::FigureSheet sheet;
    const std::string a = sheet.add(dark, light, "a-"), b = sheet.add(dark, light, "b-");
    CHECK(a.starts_with("<svg"));
    CHECK(a.find("width=\"100%\"") != std::string::npos);
    CHECK(a.find("10px") == std::string::npos);
    CHECK(a.find(".a-s2{fill:var(--c0);}") != std::string::npos);
    CHECK(a.find("style=\"fill:var(--c1);\"") != std::string::npos);
    CHECK(a.find("id=\"a-clip1\"") != std::string::npos);
    CHECK(a.find("url(#a-clip1)") != std::string::npos);
    CHECK(a.find("class=\"a-s2\"") != std::string::npos);
    CHECK(a.find("href=\"#g0\"") != std::string::npos);  // the page's glyph, not the figure's
    CHECK(b.find("href=\"#g0\"") != std::string::npos);  // shared: one outline, one symbol
    CHECK(count(sheet.glyph_sheet(), "<symbol") == 1);
    CHECK(sheet.colour_css() ==
          ":root{--c0:#ffffff;--c1:#1f2328;}\n"
          "@media (prefers-color-scheme: dark){:root{--c0:#0e1117;--c1:#e6edf3;}}\n");
    // Two themes that differ in more than colour keep both, one shown per scheme.
    std::string other = light;
    other.replace(other.find("width=\"1\""), 9, "width=\"2\"");
    const std::string both = sheet.add(dark, other, "c-");
    CHECK(count(both, "<svg class=\"only-") == 2);
}

TEST_CASE("page refuses bad explore: input with its position and writes nothing") {
    TempDir tmp;
    const fs::path bad =
        fs::path(SHARDREEL_SOURCE_DIR) / "tests/storyboards/bad/explore_out_of_range.yaml";
    const auto run = run_cli("page " + q(bad) + " -o " + q(tmp.path / "page"), tmp.path);
    CHECK(run.exit_code == 2);
    CHECK(run.err == story_test::expected_diagnostics(slurp(bad), bad.string()));
    CHECK_FALSE(fs::exists(tmp.path / "page"));
    CHECK_FALSE(fs::exists(tmp.path / "cache"));
}
