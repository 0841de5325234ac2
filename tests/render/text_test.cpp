// Shaping and metrics of the shipped Inter faces: tabular figures, kerning, linear scaling,
// alignment of drawn text, the font digest and missing-font errors.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "render/draw/raster.hpp"
#include "render/sys/error.hpp"
#include "tests/catch.hpp"
#include "tests/render/test_scene.hpp"

using render_test::shipped_fonts;
using story::TextStyle;
using story::Weight;

namespace {

double advance(std::string_view text, TextStyle style) {
    return shipped_fonts().measure(text, style).advance;
}

}  // namespace

TEST_CASE("tabular figures give every digit the same advance", "[text]") {
    const TextStyle tabular{50, Weight::regular, true};
    const double zero = advance("0", tabular);
    for (const char* digit : {"1", "2", "3", "4", "5", "6", "7", "8", "9"}) {
        CHECK(advance(digit, tabular) == zero);
    }
    CHECK(advance("1,111.1", tabular) == advance("8,808.0", tabular));
    // Proportional figures differ, which is why tnum is needed for counting numbers.
    CHECK(advance("1", {50, Weight::regular, false}) < zero - 5);
}

TEST_CASE("heavier tabular digits agree to within 3 font units", "[text]") {
    // The static Medium and SemiBold instances round the tabular 4 a few units narrower.
    for (const Weight w : {Weight::medium, Weight::semibold}) {
        const TextStyle tabular{2816, w, true};  // 1 px per font unit (Inter's upem is 2816)
        const double zero = advance("0", tabular);
        for (const char* digit : {"1", "2", "3", "4", "5", "6", "7", "8", "9"}) {
            CHECK(advance(digit, tabular) == Approx(zero).margin(3));
        }
        CHECK(advance("1", {2816, w, false}) < zero - 300);
    }
}

TEST_CASE("kerning tightens AV compared with A and V set apart", "[text]") {
    const TextStyle style{100, Weight::regular, false};
    CHECK(advance("AV", style) < advance("A", style) + advance("V", style));
    CHECK(advance("AB", style) == advance("A", style) + advance("B", style));
}

TEST_CASE("measure scales linearly with size", "[text]") {
    const auto small = shipped_fonts().measure("Per card 112 GB", {20, Weight::medium, false});
    const auto large = shipped_fonts().measure("Per card 112 GB", {60, Weight::medium, false});
    CHECK(large.advance == Approx(3 * small.advance).epsilon(1e-12));
    CHECK(large.ascent == Approx(3 * small.ascent).epsilon(1e-12));
    CHECK(large.descent == Approx(3 * small.descent).epsilon(1e-12));
    CHECK(small.ascent > small.descent);
    CHECK(small.descent > 0);
    CHECK(shipped_fonts().measure("", {20, Weight::regular, false}).advance == 0);
}

TEST_CASE("heavier weights are wider", "[text]") {
    const auto width = [](Weight w) { return advance("Weights", {40, w, false}); };
    CHECK(width(Weight::regular) < width(Weight::medium));
    CHECK(width(Weight::medium) < width(Weight::semibold));
}

TEST_CASE("shaping is consistent across threads and past the cache bound", "[text]") {
    const TextStyle style{34, Weight::regular, true};
    const double expected = advance("1,120 GB", style);
    std::vector<double> seen(4);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            for (int i = 0; i < 3000; ++i) advance(std::to_string(i * 4 + t) + " GB", style);
            seen[t] = advance("1,120 GB", style);
        });
    }
    for (auto& thread : threads) thread.join();
    CHECK(std::all_of(seen.begin(), seen.end(), [&](double a) { return a == expected; }));
}

namespace {

// Columns holding any pixel that differs from the background, as [first, last].
std::pair<int, int> ink_columns(const render::Frame& f) {
    int first = f.width, last = -1;
    const auto* bg = f.data.data();
    for (int y = 0; y < f.height; ++y) {
        for (int x = 0; x < f.width; ++x) {
            if (!std::equal(bg, bg + 4, f.data.data() + y * f.stride + x * 4)) {
                first = std::min(first, x);
                last = std::max(last, x);
            }
        }
    }
    return {first, last};
}

}  // namespace

TEST_CASE("drawn text sits where its alignment and measured advance say", "[text]") {
    const TextStyle style{100, Weight::semibold, false};
    const double width = advance("HIH", style);
    render::Frame frame{1920, 1080, 0, {}};
    for (const auto& [align, left] : {std::pair{story::Align::left, 800.0},
                                      {story::Align::center, 800.0 - width / 2},
                                      {story::Align::right, 800.0 - width}}) {
        story::Scene scene;
        scene.add(story::Text{800, 500, "HIH", style, story::hex(0xFFFFFF), align});
        render::rasterize(scene, shipped_fonts(), frame);
        const auto [first, last] = ink_columns(frame);
        // H has side bearings of a few px at 100 px; ink stays inside the advance.
        CHECK(first > left);
        CHECK(first < left + 12);
        CHECK(last < left + width);
        CHECK(last > left + width - 12);
    }
}

TEST_CASE("font digest is a stable hash of the face files", "[text]") {
    namespace fs = std::filesystem;
    const std::string digest = shipped_fonts().digest();
    CHECK(digest.size() == 16);
    CHECK(digest.find_first_not_of("0123456789abcdef") == std::string::npos);
    CHECK(render::Fonts(render::default_font_dir()).digest() == digest);

    const fs::path copy = render_test::scratch_path("fonts-copy");
    fs::create_directories(copy);
    for (const auto& entry : fs::directory_iterator(render::default_font_dir())) {
        fs::copy_file(entry.path(), copy / entry.path().filename(),
                      fs::copy_options::overwrite_existing);
    }
    std::ofstream(copy / "Inter-Medium.otf", std::ios::app) << '\0';
    CHECK(render::Fonts(copy.string()).digest() != digest);
}

TEST_CASE("a missing face is a SystemError naming its path", "[text]") {
    const std::string dir = render_test::scratch_path("no-fonts");
    std::filesystem::create_directories(dir);
    CHECK_THROWS_MATCHES(
        render::Fonts(dir), render::SystemError,
        Catch::Matchers::Message("cannot read font " + dir +
                                 "/Inter-Regular.otf: No such file or directory (the fonts ship in "
                                 "shardreel's fonts/ directory; SHARDREEL_HOME names the directory "
                                 "that holds it)"));
}

TEST_CASE("default font dir follows SHARDREEL_HOME", "[text]") {
    const char* outer = std::getenv("SHARDREEL_HOME");
    const std::string saved = outer ? outer : "";
    ::setenv("SHARDREEL_HOME", "/opt/shardreel", 1);
    CHECK(render::default_font_dir() == "/opt/shardreel/fonts");
    ::unsetenv("SHARDREEL_HOME");
    CHECK(render::default_font_dir() == SHARDREEL_SOURCE_DIR "/fonts");
    if (outer) ::setenv("SHARDREEL_HOME", saved.c_str(), 1);
}
