// Golden still of the tensor_parallel chapter at a key moment of its test storyboard.
#include <catch2/catch.hpp>

#include "tests/render/chapter_still.hpp"
#include "tests/render/golden.hpp"

TEST_CASE("golden tensor_parallel at 19.5s", "[golden][chapters]") {
    render_test::check_golden(
        "chapter_tensor_parallel",
        render_test::chapter_png("tests/storyboards/good/kind_tensor_parallel.yaml", "tensor",
                                 19.5));
}
