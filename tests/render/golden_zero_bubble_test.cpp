// Golden still of the zero_bubble chapter once ZB-H2 has settled: the Ws packed into what was
// 1F1B's bubble, no GPU idle within its span, seven micro-batches held on each.
#include <catch2/catch.hpp>

#include "tests/render/chapter_still.hpp"
#include "tests/render/golden.hpp"

TEST_CASE("golden zero_bubble: ZB-H2 settled, the Ws in the bubble", "[golden][chapters]") {
    render_test::check_golden(
        "chapter_zero_bubble",
        render_test::chapter_png("tests/storyboards/good/kind_zero_bubble.yaml", "zb", 25));
}
