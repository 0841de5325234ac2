// Golden still of the activation_checkpointing chapter at a key moment of its test storyboard.
#include <catch2/catch.hpp>

#include "tests/render/chapter_still.hpp"
#include "tests/render/golden.hpp"

TEST_CASE("golden activation_checkpointing at 13s", "[golden][chapters]") {
    render_test::check_golden(
        "chapter_activation_checkpointing",
        render_test::chapter_png("tests/storyboards/good/kind_activation_checkpointing.yaml",
                                 "checkpointing", 13));
}
