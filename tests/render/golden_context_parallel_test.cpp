// Golden still of the context_parallel chapter at a key moment: cp 8 with the balanced split,
// keys and values part-way round the ring, the blocks they unlocked filling in, equal work bars.
#include <catch2/catch.hpp>

#include "tests/render/chapter_still.hpp"
#include "tests/render/golden.hpp"

TEST_CASE("golden context_parallel: cp 8, balanced, the ring part-way round",
          "[golden][chapters]") {
    render_test::check_golden(
        "chapter_context_parallel",
        render_test::chapter_png("tests/storyboards/good/kind_context_parallel.yaml", "long",
                                 26.2));
}
