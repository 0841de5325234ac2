// How long shaping takes on a cache miss (docs/architecture.md "The text layer"): new strings each
// time, Latin (the fast path) and Arabic with a Latin name in it (bidi, a fallback face, nine
// runs).
#include <chrono>
#include <string>

#include "render/draw/fonts.hpp"
#include "tests/catch.hpp"

namespace {

void time_misses(const char* what, const std::string& before, const std::string& after,
                 const std::string& lang) {
    const render::Fonts fonts(render::default_font_dir());
    const story::TextStyle style{34, story::Weight::regular, false, lang};
    double sink = 0;
    const int n = 100000;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i)
        sink += fonts.measure(before + std::to_string(i) + after, style).advance;
    const std::chrono::duration<double, std::micro> took = std::chrono::steady_clock::now() - start;
    WARN(what << ": mean " << took.count() / n << " us a string (" << sink << ")");
}

}  // namespace

TEST_CASE("shaping time of new Latin strings", "[.bench]") {
    time_misses("Latin", "Stage ", " splits the weights across cards", "en");
}

TEST_CASE("shaping time of new Arabic strings", "[.bench]") {
    time_misses("Arabic", "يرسل GPU ", " التدرجات إلى جيرانه", "ar");
}
