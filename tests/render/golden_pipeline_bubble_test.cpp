// Golden still of the pipeline_bubble chapter at a key moment of its test storyboard.
#include <catch2/catch.hpp>

#include "tests/render/chapter_still.hpp"
#include "tests/render/golden.hpp"

TEST_CASE("golden pipeline_bubble at 15s", "[golden][chapters]") {
    render_test::check_golden(
        "chapter_pipeline_bubble",
        render_test::chapter_png("tests/storyboards/good/kind_pipeline_bubble.yaml", "bubble", 15));
}
