// Golden still of the summary chapter: the strategies side by side.
#include <catch2/catch.hpp>

#include "tests/render/chapter_still.hpp"
#include "tests/render/golden.hpp"

namespace {
const std::string kGood = "tests/storyboards/good/";
}

TEST_CASE("golden summary: seven strategies for 70B on 32 GPUs", "[golden][chapters]") {
    render_test::check_golden(
        "chapter_summary", render_test::chapter_png(kGood + "kind_summary.yaml", "summary", 19.9));
}
