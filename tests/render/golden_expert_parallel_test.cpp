// Golden still of the expert_parallel chapter at a key moment: at ep 8, tokens at their experts
// across the node, the all-to-all drawn between every pair of cards.
#include <catch2/catch.hpp>

#include "tests/render/chapter_still.hpp"
#include "tests/render/golden.hpp"

TEST_CASE("golden expert_parallel: tokens at their experts across the node at ep 8",
          "[golden][chapters]") {
    render_test::check_golden(
        "chapter_expert_parallel",
        render_test::chapter_png("tests/storyboards/good/kind_expert_parallel.yaml", "experts",
                                 25.8));
}
