// Golden still of the interconnect chapter: traffic timed on NVLink and the network.
#include <catch2/catch.hpp>

#include "tests/render/chapter_still.hpp"
#include "tests/render/golden.hpp"

namespace {
const std::string kGood = "tests/storyboards/good/";
}

TEST_CASE("golden interconnect: traffic on both links, the link each group uses framed",
          "[golden][chapters]") {
    render_test::check_golden(
        "chapter_interconnect",
        render_test::chapter_png(kGood + "kind_interconnect.yaml", "links", 17.5));
}
