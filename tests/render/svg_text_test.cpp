// SVG stills keep their words: Cairo draws glyph outlines, so the sink adds transparent <text>
// elements at the same places; checked with xmllint (valid XML, the elements and their text).
#include <algorithm>
#include <array>
#include <cstdio>
#include <regex>

#include "tests/catch.hpp"
#include "tests/render/cli.hpp"
#include "tests/render/markup.hpp"
#include "tests/render/test_scene.hpp"

namespace {

std::string run(const std::string& command, int& status) {
    std::string out;
    std::FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
    std::array<char, 4096> buf{};
    for (std::size_t n; (n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0;)
        out.append(buf.data(), n);
    status = ::pclose(pipe);
    return out;
}

// The value of an XPath expression; local-name() sidesteps the SVG namespace, which
// xmllint's --xpath cannot bind.
std::string xpath_value(const std::string& file, const std::string& expression) {
    int status = 0;
    return run("xmllint --xpath \"" + expression + "\" '" + file + "'", status);
}

}  // namespace

TEST_CASE("SVG stills carry a transparent, selectable text layer", "[stills][svg]") {
    const std::string svg = render_test::scratch_path("text-layer.svg");
    const story::Scene scene = render_test::test_scene(story::ThemeName::dark);
    render_test::render_still(scene, svg, 480, 270);
    int status = -1;
    run("xmllint --noout '" + svg + "'", status);
    CHECK(status == 0);

    const auto texts = story::texts_of(scene);
    const std::string count =
        xpath_value(svg, "count(//*[local-name()='text'][@fill-opacity='0'])");
    CHECK(std::stoul(count) == texts.size());
    // The layer's text elements are the scene's texts, in the order drawn.
    std::vector<std::string> drawn;
    for (const auto& placed : texts) drawn.push_back(placed.text.text);
    const auto layer = render_test::element(render_test::slurp(svg), "g", {{"id", "text-layer"}});
    CHECK(render_test::texts(layer.inner, "text") == drawn);
    // Cairo still draws the glyphs themselves, each defined once and used where drawn: a
    // <symbol id="glyph0-1"> up to Cairo 1.16 (Debian 12), a <g id="glyph-0-1"> from 1.18 (13).
    const std::string glyphs =
        xpath_value(svg, "count(//*[local-name()='defs']//*[starts-with(@id, 'glyph')])");
    CHECK(std::stoul(glyphs) > 0);
    const std::string uses = xpath_value(
        svg,
        "count(//*[local-name()='use'][starts-with(substring-after(@*[local-name()='href'], "
        "'#'), 'glyph')])");
    CHECK(std::stoul(uses) >= std::stoul(glyphs));
}

TEST_CASE("the text layer sits where the glyphs are, at the output scale", "[stills][svg]") {
    story::Scene scene;
    scene.add(story::Text{960,
                          540,
                          "Centred & <escaped>",
                          {40, story::Weight::semibold, false},
                          story::hex(0xFFFFFF),
                          story::Align::center});
    const std::string svg = render_test::scratch_path("text-position.svg");
    render_test::render_still(scene, svg, 480, 270);
    const std::string text = render_test::slurp(svg);
    std::smatch m;
    REQUIRE(std::regex_search(
        text, m,
        std::regex(
            R"re(<text fill-opacity="0" x="([0-9.]+)" y="([0-9.]+)" font-size="([0-9.]+)" font-weight="600" textLength="([0-9.]+)")re")));
    const double x = std::stod(m.str(1)), y = std::stod(m.str(2)), size = std::stod(m.str(3)),
                 length = std::stod(m.str(4));
    CHECK(y == Approx(135));
    CHECK(size == Approx(10));
    CHECK(x + length / 2 == Approx(240).margin(0.02));
    CHECK(render_test::texts(text, "text", {{"fill-opacity", "0"}}) ==
          std::vector<std::string>{"Centred & <escaped>"});
}

TEST_CASE("right-to-left text in the layer carries its direction and language", "[stills][svg]") {
    story::Scene scene;
    const story::TextStyle arabic{40, story::Weight::regular, false, "ar"};
    scene.add(
        story::Text{1800, 300, "مرحبا بالعالم", arabic, story::hex(0xFFFFFF), story::Align::right});
    scene.add(story::Text{100, 500, "שלום", {40}, story::hex(0xFFFFFF)});  // unknown: by letter
    scene.add(story::Text{
        100, 700, "Per card", {40, story::Weight::regular, false, "en"}, story::hex(0xFFFFFF)});
    const std::string svg = render_test::scratch_path("text-rtl.svg");
    render_test::render_still(scene, svg, 480, 270);
    int status = -1;
    run("xmllint --noout '" + svg + "'", status);
    CHECK(status == 0);
    const std::string text = render_test::slurp(svg);
    std::smatch m;
    REQUIRE(std::regex_search(
        text, m,
        std::regex(
            R"re(<text fill-opacity="0" x="([0-9.]+)"[^>]* xml:lang="ar" direction="rtl">مرحبا بالعالم</text>)re")));
    CHECK(std::stod(m.str(1)) == Approx(450));  // the start of the line is its right end
    CHECK(std::regex_search(text, std::regex(R"re( direction="rtl">שלום</text>)re")));
    const auto english = render_test::element(text, "text", {{"xml:lang", "en"}});
    CHECK(english.text() == "Per card");
    CHECK_FALSE(english.attrs.contains("direction"));
    CHECK(std::stoul(xpath_value(svg, "count(//*[local-name()='text'][@direction='rtl'])")) == 2);
}

TEST_CASE("still writes SVG text layers through the CLI", "[stills][svg][cli]") {
    render_test::TempDir dir;
    const std::string out = (dir.path / "bytes.svg").string();
    const auto r = render_test::run_cli("still " SHARDREEL_SOURCE_DIR
                                        "/tests/storyboards/good/short.yaml --at bytes@end -o '" +
                                        out + "'");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const std::string svg = render_test::slurp(out);
    const auto layer = render_test::element(svg, "g", {{"id", "text-layer"}});
    const std::vector<std::string> drawn = render_test::texts(layer.inner, "text");
    CHECK(std::ranges::count(drawn, "Bytes") == 1);  // the chapter's title, as one text
    CHECK(std::ranges::count(drawn, "Bytes per parameter") == 1);
}
