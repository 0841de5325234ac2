// How long shaping takes on a cache miss (README "The text layer"): Latin strings, each new.
#include <catch2/catch.hpp>
#include <chrono>
#include <string>

#include "render/draw/fonts.hpp"

TEST_CASE("shaping time of new Latin strings", "[.bench]") {
    const render::Fonts fonts(render::default_font_dir());
    const story::TextStyle style{34, story::Weight::regular, false};
    double sink = 0;
    const int n = 100000;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i)
        sink +=
            fonts.measure("Stage " + std::to_string(i) + " splits the weights across cards", style)
                .advance;
    const std::chrono::duration<double, std::micro> took = std::chrono::steady_clock::now() - start;
    WARN("mean " << took.count() / n << " us a string (" << sink << ")");
}
