// Golden still of the layout_3d chapter: a rack sliced by tensor, pipeline and data parallelism.
#include <catch2/catch.hpp>

#include "tests/render/chapter_still.hpp"
#include "tests/render/golden.hpp"

namespace {
const std::string kGood = "tests/storyboards/good/";
}

TEST_CASE("golden layout_3d: pipeline stages of one replica in focus", "[golden][chapters]") {
    render_test::check_golden(
        "chapter_layout_3d", render_test::chapter_png(kGood + "kind_layout_3d.yaml", "rack", 11.0));
}
