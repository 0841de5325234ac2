// PNG, SVG and PDF stills: deterministic bytes, valid files (xmllint, pdfinfo), the PDF's text,
// atomic writes, and the same picture at every output size.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "render/draw/raster.hpp"
#include "render/sinks/video/make_sink.hpp"
#include "render/sys/error.hpp"
#include "tests/catch.hpp"
#include "tests/render/markup.hpp"
#include "tests/render/test_scene.hpp"

using render_test::render_still;
using render_test::scratch_path;
using render_test::test_scene;

namespace {

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct Run {
    int status;
    std::string out;
};

Run run(const std::string& command) {
    Run r{-1, {}};
    std::FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
    std::array<char, 4096> buf{};
    for (std::size_t n; (n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0;) {
        r.out.append(buf.data(), n);
    }
    r.status = ::pclose(pipe);
    return r;
}

// The value of a "Name:   value" line of pdfinfo's report.
std::string field(const std::string& report, const std::string& name) {
    std::istringstream in(report);
    for (std::string line; std::getline(in, line);) {
        if (line.rfind(name + ":", 0) != 0) continue;
        const std::size_t value = line.find_first_not_of(' ', name.size() + 1);
        return value == std::string::npos ? "" : line.substr(value);
    }
    return "(no " + name + ")";
}

// Whitespace-separated words, sorted; thin spaces count as spaces.
std::vector<std::string> words(const std::string& text) {
    const std::string thin = "\u2009";
    std::string spaced;
    for (std::size_t i = 0; i < text.size();) {
        const bool is_thin = text.compare(i, thin.size(), thin) == 0;
        spaced += is_thin ? ' ' : text[i];
        i += is_thin ? thin.size() : 1;
    }
    std::istringstream in(spaced);
    std::vector<std::string> out{std::istream_iterator<std::string>(in), {}};
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::string> files_in(const std::string& dir) {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        names.push_back(e.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
}

}  // namespace

TEST_CASE("stills are byte-identical when rendered twice", "[stills]") {
    for (const char* ext : {".png", ".svg", ".pdf"}) {
        const std::string a = scratch_path(std::string("twice-a") + ext);
        const std::string b = scratch_path(std::string("twice-b") + ext);
        render_still(test_scene(story::ThemeName::light), a, 480, 270);
        render_still(test_scene(story::ThemeName::light), b, 480, 270);
        INFO(ext);
        CHECK(slurp(a).size() > 1000);
        CHECK(slurp(a) == slurp(b));
    }
}

// Cairo numbers surfaces from one counter for the whole process (surfaceN and imageN in Cairo
// 1.16, source-N in 1.18): the sink renumbers them per document, from 1, so a second still drawn
// by the same process (the studio, a test) has the bytes of the first.
TEST_CASE("an SVG still numbers Cairo's surfaces from 1 whatever was drawn before", "[stills]") {
    const std::string svg = scratch_path("numbered.svg");
    for (int i = 0; i < 3; ++i) render_still(test_scene(story::ThemeName::light), svg, 480, 270);
    const std::string text = slurp(svg);
    static const std::regex id(R"re(id="(surface|image|source-)(\d+)")re");
    std::map<std::string, std::set<int>> numbers;
    for (std::sregex_iterator it(text.begin(), text.end(), id), end; it != end; ++it)
        numbers[it->str(1)].insert(std::stoi(it->str(2)));
    REQUIRE_FALSE(numbers.empty());  // the scene's translucent group is drawn as a surface
    for (const auto& [name, used] : numbers) {
        INFO(name);
        CHECK(*used.begin() == 1);
        CHECK(*used.rbegin() == static_cast<int>(used.size()));
    }
}

TEST_CASE("SVG still is well-formed XML sized in px", "[stills]") {
    const std::string svg = scratch_path("valid.svg");
    render_still(test_scene(story::ThemeName::dark), svg, 480, 270);
    const Run lint = run("xmllint --noout " + svg);
    INFO(lint.out);
    CHECK(lint.status == 0);
    const render_test::Element root = render_test::element(slurp(svg), "svg");
    CHECK(root.attr("width") == "480px");
    CHECK(root.attr("height") == "270px");
}

TEST_CASE("PDF still is valid, sized at 0.75 pt per px, with the scene's text", "[stills]") {
    const std::string pdf = scratch_path("valid.pdf");
    const story::Scene scene = test_scene(story::ThemeName::light);
    render_still(scene, pdf, 480, 270);
    const Run info = run("pdfinfo " + pdf);
    INFO(info.out);
    CHECK(info.status == 0);
    CHECK(field(info.out, "Page size") == "360 x 202.5 pts");
    CHECK(field(info.out, "Pages") == "1");

    const Run text = run("pdftotext " + pdf + " -");
    CHECK(text.status == 0);
    std::string expected;
    for (const auto& placed : story::texts_of(scene)) expected += placed.text.text + "\n";
    CHECK(words(text.out) == words(expected));
}

namespace {

// Mean of each factor x factor block, per channel: small glyph and edge rasterisation
// differences average out, while anything moved, missing or recoloured does not.
std::vector<int> blocks(const render::Frame& f, int factor) {
    std::vector<int> out;
    for (int by = 0; by < f.height / factor; ++by) {
        for (int bx = 0; bx < f.width / factor; ++bx) {
            for (int c = 0; c < 4; ++c) {
                int sum = 0;
                for (int y = by * factor; y < (by + 1) * factor; ++y) {
                    for (int x = bx * factor; x < (bx + 1) * factor; ++x) {
                        sum += f.data[y * f.stride + x * 4 + c];
                    }
                }
                out.push_back(sum / (factor * factor));
            }
        }
    }
    return out;
}

// Largest per-channel difference between the scene drawn at 1920x1080 and at 480x270,
// both reduced to 120x67 blocks.
int largest_block_difference(const story::Scene& big_scene, const story::Scene& small_scene) {
    render::Frame big{1920, 1080, 0, {}}, small{480, 270, 0, {}};
    render::rasterize(big_scene, render_test::shipped_fonts(), big);
    render::rasterize(small_scene, render_test::shipped_fonts(), small);
    const std::vector<int> a = blocks(big, 16), b = blocks(small, 4);
    int worst = 0;
    for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
    return worst;
}

}  // namespace

TEST_CASE("the picture is the same at 1920x1080 and 480x270", "[stills]") {
    const story::Scene scene = test_scene(story::ThemeName::dark);
    CHECK(largest_block_difference(scene, scene) <= 16);
    // The comparison does see a change: one bar of the memory stack moved by 24 px.
    story::Scene moved = scene;
    std::get<story::Rect>(moved.items[4].shape).x += 24;
    CHECK(largest_block_difference(scene, moved) > 40);
}

TEST_CASE("a wider output letterboxes instead of stretching", "[stills]") {
    story::Scene scene;
    scene.background = story::hex(0x000000);
    scene.add(story::Rect{0, 0, 1920, 1080, 0, story::hex(0xFFFFFF), std::nullopt, 0, false,
                          std::nullopt});
    render::Frame frame{400, 100, 0, {}};
    render::rasterize(scene, render_test::shipped_fonts(), frame);
    // 400x100 fits 1920x1080 at 100/1080: a 177.8 px wide picture centred, black bars beside.
    const auto red_at = [&](int x) { return frame.data[50 * frame.stride + x * 4 + 2]; };
    CHECK(red_at(100) == 0);
    CHECK(red_at(200) == 255);
    CHECK(red_at(300) == 0);
}

TEST_CASE("sinks write through a temporary file and clean up on abort", "[stills]") {
    namespace fs = std::filesystem;
    const std::string dir = scratch_path("atomic");
    fs::create_directories(dir);
    const auto& fonts = render_test::shipped_fonts();

    const auto sink = render::make_sink(dir + "/out.PDF", fonts);
    sink->begin({dir + "/out.PDF", 480, 270, 30});
    sink->write(test_scene(story::ThemeName::dark));
    REQUIRE(files_in(dir).size() == 1);
    CHECK(files_in(dir)[0].rfind(".out.PDF.tmp-", 0) == 0);
    sink->abort();
    CHECK(files_in(dir).empty());

    sink->begin({dir + "/out.PDF", 480, 270, 30});
    sink->write(test_scene(story::ThemeName::dark));
    sink->finish();
    CHECK(files_in(dir) == std::vector<std::string>{"out.PDF"});
    CHECK(slurp(dir + "/out.PDF").rfind("%PDF-", 0) == 0);
}

TEST_CASE("sink errors name the path", "[stills]") {
    const auto& fonts = render_test::shipped_fonts();
    CHECK_THROWS_MATCHES(
        render::make_sink("out.avi", fonts), render::SystemError,
        Catch::Matchers::Message("unsupported output out.avi: use .mp4, .webm, .gif, .png, a PNG "
                                 "sequence such as frames/%05d.png, .svg or .pdf"));
    const std::string path = scratch_path("missing-dir/still.png");
    const auto sink = render::make_sink(path, fonts);
    CHECK_THROWS_MATCHES(
        sink->begin({path, 480, 270, 30}), render::SystemError,
        Catch::Matchers::Message("cannot write " + path + ": No such file or directory"));
}

TEST_CASE("a PDF takes one page per scene written", "[stills]") {
    const std::string pdf = scratch_path("pages.pdf");
    const auto sink = render::make_sink(pdf, render_test::shipped_fonts());
    sink->begin({pdf, 1920, 1080, 30});
    sink->write(test_scene(story::ThemeName::dark));
    sink->write(test_scene(story::ThemeName::light));
    sink->finish();
    const Run info = run("pdfinfo " + pdf);
    CHECK(field(info.out, "Pages") == "2");
    CHECK(field(info.out, "Page size") == "1440 x 810 pts");
}
