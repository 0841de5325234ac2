// Golden still of the ring_allreduce chapter at a key moment: chunks halfway round the ring during
// reduce-scatter.
#include <catch2/catch.hpp>

#include "tests/render/chapter_still.hpp"
#include "tests/render/golden.hpp"

TEST_CASE("golden ring_allreduce: chunks halfway round the ring during reduce-scatter",
          "[golden][chapters]") {
    render_test::check_golden(
        "chapter_ring_allreduce",
        render_test::chapter_png("tests/storyboards/good/kind_ring_allreduce.yaml", "ring", 7.3));
}
