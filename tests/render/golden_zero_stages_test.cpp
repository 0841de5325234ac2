// Golden still of the zero_stages chapter at a key moment: ZeRO-3 reached, the table complete.
#include <catch2/catch.hpp>

#include "tests/render/chapter_still.hpp"
#include "tests/render/golden.hpp"

TEST_CASE("golden zero_stages: ZeRO-3 reached, the table complete", "[golden][chapters]") {
    render_test::check_golden(
        "chapter_zero_stages",
        render_test::chapter_png("tests/storyboards/good/kind_zero_stages.yaml", "zero", 16.5));
}
