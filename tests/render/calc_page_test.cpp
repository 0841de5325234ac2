// The calculator page as written (render/calc_page, `shardreel calculator`): base64 by RFC 4648's
// vectors, the page's module element holding exactly the module's bytes, its script beginning
// with calc/calc.js as it is, the film's palette as its colours; and the command finding the
// module beside the binary, or exiting 1 naming it; the page in a language (--lang): its words
// from the catalogue, its numbering system, every template of the engine's refusals translated. The
// page in a browser is tests/calc/calc_page_test.mjs (and, in German and Arabic,
// calc_page_lang_test.mjs).
#include "render/calc_page/calc_page.hpp"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "engine/problem.hpp"
#include "story/storyboard/problems.hpp"
#include "story/text/catalogue.hpp"
#include "story/text/locale.hpp"
#include "tests/catch.hpp"
#include "tests/render/cli.hpp"

namespace {

namespace fs = std::filesystem;
using render_test::q;

// The text of the element that opens with `open` (its whole start tag), up to its end tag.
std::string element_text(const std::string& page, const std::string& open) {
    const std::size_t at = page.find(open);
    REQUIRE(at != std::string::npos);
    const std::size_t from = at + open.size();
    return page.substr(from, page.find("</script>", from) - from);
}

const std::string kModuleTag = "<script id=\"calc-module\" type=\"application/octet-stream\">";

std::string every_byte() {
    std::string bytes;
    for (int b = 0; b < 256; ++b) bytes += static_cast<char>(b);
    return bytes;
}

}  // namespace

TEST_CASE("base64 gives RFC 4648's test vectors", "[calc_page]") {
    CHECK(render::base64("") == "");
    CHECK(render::base64("f") == "Zg==");
    CHECK(render::base64("fo") == "Zm8=");
    CHECK(render::base64("foo") == "Zm9v");
    CHECK(render::base64("foob") == "Zm9vYg==");
    CHECK(render::base64("fooba") == "Zm9vYmE=");
    CHECK(render::base64("foobar") == "Zm9vYmFy");
    CHECK(render::base64(std::string("\xff\x00\xfe", 3)) == "/wD+");
}

TEST_CASE("the calculator page holds the module, calc.js as it is and the film's palette",
          "[calc_page]") {
    const std::string page = render::calculator_page(every_byte());
    CHECK(element_text(page, kModuleTag) == render::base64(every_byte()));
    const std::string calc_js = render_test::slurp(fs::path(SHARDREEL_SOURCE_DIR) / "calc/calc.js");
    CHECK(element_text(page, "<script type=\"module\">\n").substr(0, calc_js.size()) == calc_js);
    // The style's first two lines: STYLE.md's light and dark palettes (story/scene/theme.cpp), the
    // highlight colour among them (the bar's "over by X GB", as the film writes it).
    const std::string style = element_text(page, "<style>\n");
    CHECK(render_test::lines_of(style).at(0) ==
          ":root{color-scheme:light dark;--weights:#0072B2;--gradients:#B36B00;--optimizer:#A0508A;"
          "--activations:#007A5A;--comm:#C04F00;--highlight:#8A7A00;--idle:#8C959F;--bg:#FFFFFF;"
          "--panel:#F6F8FA;--line:#D0D7DE;"
          "--fg:#1F2328;--muted:#59636E;}");
    CHECK(render_test::lines_of(style).at(1) ==
          "@media (prefers-color-scheme: dark){:root{--weights:#56B4E9;--gradients:#E69F00;"
          "--optimizer:#CC79A7;--activations:#009E73;--comm:#D55E00;--highlight:#F0E442;"
          "--idle:#6E7681;--bg:#0E1117;--panel:#161B22;"
          "--line:#30363D;--fg:#E6EDF3;--muted:#8B949E;}}");
}

TEST_CASE("shardreel calculator writes DIR/index.html around the module beside it, without libav",
          "[calc_page]") {
    render_test::TempDir tmp;
    const fs::path bin = tmp.path / "bin";
    fs::create_directories(bin);
    fs::copy_file(SHARDREEL_BINARY, bin / "shardreel");
    render_test::write_text(bin / "shardreel-calc.wasm", every_byte());
    // LD_DEBUG=libs: the loader logs each library it maps on stderr (a core command, no libav).
    const auto run = render_test::run_shell("LD_DEBUG=libs " + q(bin / "shardreel") +
                                            " calculator -o " + q(tmp.path / "page"));
    REQUIRE(run.exit_code == 0);
    CHECK(render_test::initialised(run.err, "libcairo.so"));  // the log is there to read
    CHECK_FALSE(render_test::initialised(run.err, "libavcodec.so"));
    CHECK(render_test::lines_of(run.out) ==
          std::vector<std::string>{(tmp.path / "page/index.html").string()});
    const std::string page = render_test::slurp(tmp.path / "page/index.html");
    CHECK(element_text(page, kModuleTag) == render::base64(every_byte()));
}

TEST_CASE("shardreel calculator exits 1 naming the module it cannot find", "[calc_page]") {
    render_test::TempDir tmp;
    fs::copy_file(SHARDREEL_BINARY, tmp.path / "shardreel");
    const auto run = render_test::run_shell(q(tmp.path / "shardreel") + " calculator -o " +
                                            q(tmp.path / "page"));
    CHECK(run.exit_code == 1);
    CHECK(render_test::lines_of(run.err) ==
          std::vector<std::string>{"shardreel: error: cannot read the calculator module " +
                                   (tmp.path / "shardreel-calc.wasm").string() +
                                   ": No such file or directory (built with -DSHARDREEL_CALC=ON)"});
    CHECK_FALSE(fs::exists(tmp.path / "page"));
}

TEST_CASE("the calculator page speaks its language: the catalogue's words, ICU's digits",
          "[calc_page]") {
    const std::string locale_tag = "<script id=\"calc-locale\" type=\"application/json\">";
    for (const auto& [lang, dir, numbering] :
         {std::tuple{"en", "ltr", "latn"}, {"de", "ltr", "latn"}, {"ar", "rtl", "arab"}}) {
        INFO(lang);
        const story::Locale l(lang);
        const std::string page = render::calculator_page(every_byte(), lang);
        CHECK(page.starts_with(std::string("<!doctype html>\n<html lang=\"") + lang + "\" dir=\"" +
                               dir + "\"><head><meta charset=\"utf-8\"><title>" +
                               l.tr("shardreel calculator") + "</title>"));
        CHECK(page.find("<h1>" + l.tr("Training calculator") + "</h1>") != std::string::npos);
        const auto locale = nlohmann::json::parse(element_text(page, locale_tag));
        CHECK(locale["lang"] == lang);
        CHECK(locale["numbering"] == numbering);
        // Each message of the script the catalogue translates, as it translates it.
        std::size_t translated = 0;
        for (const std::string& id : render::calculator_msgids()) {
            const std::string text = l.tr(id);
            CHECK(locale["words"].contains(id) == (text != id));
            if (text != id) CHECK(locale["words"][id] == text);
            translated += text != id;
        }
        CHECK(locale["words"].size() == (lang == std::string("en") ? 0u : translated));
    }
}

TEST_CASE("every shipped language translates every message of the calculator's script",
          "[calc_page]") {
    const std::vector<std::string> ids = render::calculator_msgids();
    CHECK(ids.size() > 100);
    CHECK(std::ranges::adjacent_find(ids) == ids.end());  // each once
    CHECK(story::shipped_catalogues().size() == 4);
    for (const story::Catalogue& c : story::shipped_catalogues())
        for (const std::string& id : ids) {
            INFO(c.language() << ": " << id);
            CHECK(c.find(id).has_value());
        }
}

namespace {

// The {name} marks of a template, sorted.
std::vector<std::string> marks(const std::string& text) {
    std::vector<std::string> out;
    for (std::size_t open = text.find('{'); open != std::string::npos;
         open = text.find('{', open + 1))
        out.push_back(text.substr(open, text.find('}', open) - open + 1));
    std::ranges::sort(out);
    return out;
}

}  // namespace

TEST_CASE(
    "every shipped language translates every template of the refusals (the engine's and a flag's "
    "value's) with its marks",
    "[calc_page]") {
    CHECK(engine::problem_formats().size() == std::size_t(engine::Msg::count));
    CHECK(story::refusal_formats().size() == std::size_t(story::Refusal::count));
    std::vector<std::string> formats(engine::problem_formats().begin(),
                                     engine::problem_formats().end());
    formats.insert(formats.end(), story::refusal_formats().begin(), story::refusal_formats().end());
    const std::vector<std::string> ids = render::calculator_msgids();
    for (const std::string& format : formats) {
        INFO(format);
        CHECK(std::ranges::binary_search(ids, format));  // the page carries its translations
        for (const story::Catalogue& c : story::shipped_catalogues()) {
            INFO(c.language());
            const auto text = c.find(format);
            REQUIRE(text.has_value());
            CHECK_FALSE(std::string(*text).empty());
            CHECK(std::string(*text) != format);
            CHECK(marks(std::string(*text)) == marks(format));
        }
    }
}

TEST_CASE("shardreel calculator --lang writes the page in that language", "[calc_page]") {
    render_test::TempDir tmp;
    const fs::path bin = tmp.path / "bin";
    fs::create_directories(bin);
    fs::copy_file(SHARDREEL_BINARY, bin / "shardreel");
    render_test::write_text(bin / "shardreel-calc.wasm", every_byte());
    const auto run = render_test::run_shell(q(bin / "shardreel") + " calculator --lang ar -o " +
                                            q(tmp.path / "page"));
    REQUIRE(run.exit_code == 0);
    CHECK(render_test::slurp(tmp.path / "page/index.html") ==
          render::calculator_page(every_byte(), "ar"));
}
