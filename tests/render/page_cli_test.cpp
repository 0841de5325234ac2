// `shardreel page` through the CLI: the files it writes, the film read back with libav, figures
// merged for both colour schemes, the figure cache, and bad input (exit 2, nothing written).
// The page in a real browser is tests/render/page_test.mjs (ctest "page: chromium loads it ...").
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "render/container/video_probe.hpp"
#include "render/page/figures.hpp"
#include "tests/catch.hpp"
#include "tests/render/cli.hpp"
#include "tests/render/markup.hpp"
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

// The ids of markup's elements that start with `prefix`.
std::vector<std::string> ids_starting(const std::string& markup, const std::string& prefix) {
    std::vector<std::string> out;
    for (const Element& e : elements(markup, "*"))
        if (e.attrs.contains("id") && e.attrs.at("id").starts_with(prefix))
            out.push_back(e.attr("id"));
    return out;
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
    std::vector<std::string> sections, templates, precisions;
    for (const Element& e : elements(html, "section", {{"class", "chapter"}}))
        sections.push_back(e.attr("id"));
    CHECK(sections == std::vector<std::string>{"ch-bytes", "ch-bubble", "ch-zero"});
    for (const Element& e : elements(html, "template")) templates.push_back(e.attr("id"));
    // Every value's figure but the written one's (shown inline): 5 micro-batch counts, 3
    // precisions.
    CHECK(templates == std::vector<std::string>{"fig-bubble-0", "fig-bubble-1", "fig-bubble-2",
                                                "fig-bubble-3", "fig-zero-0", "fig-zero-2"});
    CHECK(element(html, "input", {{"type", "range"}}).attrs ==
          Attrs{{"type", "range"},
                {"id", "x-bubble-micro_batches"},
                {"data-param", "micro_batches"},
                {"min", "0"},
                {"max", "4"},
                {"step", "1"},
                {"value", "4"},
                {"aria-valuetext", "16"}});
    for (const Element& e : elements(html, "input", {{"name", "x-zero-precision"}}))
        precisions.push_back(e.attr("value") + (e.attrs.contains("checked") ? " (checked)" : ""));
    CHECK(precisions == std::vector<std::string>{"fp32", "bf16-mixed (checked)", "fp8-mixed"});
    // The formulas as MathML: ZeRO's memory per GPU, symbols, values, total.
    const Element zero = element(html, "section", {{"id", "ch-zero"}});
    CHECK(texts(zero.inner, "math") ==
          std::vector<std::string>{"W+G+O+A", "=3.5\u2009GB+3.5\u2009GB+21\u2009GB+18.3\u2009GB",
                                   "=46.3\u2009GB"});
    // The tracks inline (file:// pages may not load a track file), percent-encoded: the very
    // files written beside the page.
    const auto track = [&](const std::string& kind) {
        const std::string src = element(html, "track", {{"kind", kind}}).attr("src");
        const std::string data = "data:text/vtt;charset=utf-8,";
        REQUIRE(src.starts_with(data));
        return percent_decoded(src.substr(data.size()));
    };
    CHECK(track("chapters") == slurp(page / "chapters.vtt"));
    CHECK(track("captions") == slurp(page / "film.vtt"));
    CHECK(texts(element(html, "details").inner, "p") ==
          std::vector<std::string>{"Then every stage but one waits for it."});
    for (const Element& e : elements(html, "*"))  // no external request
        for (const char* key : {"src", "href"})
            CHECK_FALSE((e.attrs.contains(key) && e.attrs.at(key).starts_with("http")));
    CHECK(ids_starting(html, "glyph").empty());  // every glyph moved to the page's sheet
    CHECK(report["figures"] == 1 + 5 + 3);       // each variant is a figure
    CHECK(report["page_bytes"].get<long long>() < 3 * 1024 * 1024);
    // The calculator beside, framed last; each chapter's configuration a link into the frame,
    // and each beat's that sets its own (bubble's second, where its picture rests: 2 s + 1 s of
    // morph + 0.5 s, frame 35 at 10 fps).
    CHECK(slurp(page / "calculator.html").starts_with("<!doctype html>"));
    // The frame opens on the storyboard's defaults:, not the calculator's own model.
    CHECK(element(html, "iframe").attrs ==
          Attrs{{"name", "calculator"},
                {"src", "calculator.html#--model=llama-2-7b&--pp=4"},
                {"title", "Calculator"}});
    std::vector<std::string> links;
    for (const Element& e : elements(html, "a", {{"target", "calculator"}}))
        links.push_back(e.attr("data-calc") + " " + e.attr("href"));
    CHECK(links == std::vector<std::string>{
                       "bytes@29f calculator.html#--model=llama-2-7b&--pp=4",
                       "bubble@39f calculator.html#--micro-batches=16&--model=llama-2-7b&--pp=4",
                       "bubble@35f calculator.html#--micro-batches=16&--model=llama-2-7b&--pp=4",
                       "zero@29f calculator.html#--model=llama-2-7b&--pp=4"});
    CHECK(texts(html, "a", {{"target", "calculator"}}).at(2) ==
          "Open beat 2’s configuration in the calculator");
}

TEST_CASE("page --no-calculator leaves the calculator out") {
    TempDir tmp;
    const auto run = run_cli(
        "page " + q(kExplore.string()) + " -o " + q(tmp.path / "page") + " --no-calculator --json",
        tmp.path);
    REQUIRE(run.exit_code == 0);
    CHECK_FALSE(fs::exists(tmp.path / "page/calculator.html"));
    const std::string html = slurp(tmp.path / "page/index.html");
    CHECK(elements(html, "iframe").empty());
    CHECK(elements(html, "a", {{"target", "calculator"}}).empty());
}

TEST_CASE("a chapter's link carries what it draws - named in the storyboard's own frames") {
    // fsdp_gather draws ZeRO-3 whatever its configuration says (story::as_drawn); the page is
    // drawn at 15 fps (--quality low), the storyboard written at 30. Before, the link named
    // fsdp@449f, which numbers counts at 30 fps (half-way through), and carried no --zero=3.
    TempDir tmp;
    const std::string board =
        (fs::path(SHARDREEL_SOURCE_DIR) / "tests/storyboards/good/kind_fsdp_gather.yaml").string();
    const auto run =
        run_cli("page " + q(board) + " -o " + q(tmp.path / "page") + " --quality low --no-audio -q",
                tmp.path);
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    const auto links =
        elements(slurp(tmp.path / "page/index.html"), "a", {{"target", "calculator"}});
    REQUIRE(links.size() == 1);
    const std::string at = links[0].attr("data-calc"), href = links[0].attr("href");
    CHECK(at == "fsdp@898f");  // 29.93 s: the figure's moment, the chapter's end
    REQUIRE(href.find('#') != std::string::npos);
    // The link's flags give the figures numbers prints at that moment, to the byte.
    std::string flags;
    std::istringstream fragment(href.substr(href.find('#') + 1));
    for (std::string part; std::getline(fragment, part, '&');)
        flags += " " + std::regex_replace(percent_decoded(part), std::regex("="), " ");
    CHECK(flags == " --model 7B --zero 3");
    const auto numbers = [&](const std::string& args) {
        const auto r = run_cli("numbers " + args + " --format json", tmp.path);
        INFO(r.err);
        REQUIRE(r.exit_code == 0);
        return nlohmann::json::parse(r.out);
    };
    const auto shown = numbers(q(board) + " --at " + at);
    CHECK(shown["layout"]["zero"] == 3);
    CHECK(numbers(flags) == shown);
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
    const Element root = element(a, "svg");
    CHECK(root.attr("width") == "100%");  // the page sizes it
    CHECK(root.attr("viewBox") == "0 0 10 10");
    CHECK_FALSE(root.attrs.contains("height"));
    // Its classes and ids are its own (prefixed), its colours the sheet's variables.
    CHECK(element(a, "style").inner == "\n.a-s1{stroke:none;}\n.a-s2{fill:var(--c0);}\n");
    CHECK(element(a, "rect", {{"width", "1"}}).attr("style") == "fill:var(--c1);");
    CHECK(elements(a, "clipPath", {{"id", "a-clip1"}}).size() == 1);
    CHECK(elements(a, "g", {{"clip-path", "url(#a-clip1)"}}).size() == 1);
    const Element glyph = element(a, "use");
    CHECK(glyph.attr("class") == "a-s2");
    CHECK(glyph.attr("href") == "#g0");              // the page's glyph, not the figure's
    CHECK(element(b, "use").attr("href") == "#g0");  // shared: one outline, one symbol
    CHECK(elements(sheet.glyph_sheet(), "symbol").size() == 1);
    CHECK(sheet.colour_css() ==
          ":root{--c0:#ffffff;--c1:#1f2328;}\n"
          "@media (prefers-color-scheme: dark){:root{--c0:#0e1117;--c1:#e6edf3;}}\n");
    // Two themes that differ in more than colour keep both, one shown per scheme.
    std::string other = light;
    other.replace(other.find("width=\"1\""), 9, "width=\"2\"");
    const std::string both = sheet.add(dark, other, "c-");
    std::vector<std::string> schemes;
    for (const Element& e : elements(both, "svg")) schemes.push_back(e.attr("class"));
    CHECK(schemes == std::vector<std::string>{"only-dark", "only-light"});
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
