// Golden still of the fsdp_gather chapter at a key moment: shards flying in for the first slice.
#include <catch2/catch.hpp>

#include "tests/render/chapter_still.hpp"
#include "tests/render/golden.hpp"

TEST_CASE("golden fsdp_gather: shards flying in for the first slice", "[golden][chapters]") {
    render_test::check_golden(
        "chapter_fsdp_gather",
        render_test::chapter_png("tests/storyboards/good/kind_fsdp_gather.yaml", "fsdp", 5.7));
}
