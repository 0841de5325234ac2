// Golden still of the plan chapter once the search is over: the ranked three in order, every
// reason's total, and the winner's first node with its axes' legend.
#include <catch2/catch.hpp>

#include "tests/render/chapter_still.hpp"
#include "tests/render/golden.hpp"

TEST_CASE("golden plan: the ranked three and the winner's node", "[golden][chapters]") {
    render_test::check_golden(
        "chapter_plan",
        render_test::chapter_png("tests/storyboards/good/kind_plan.yaml", "plan", 20));
}
