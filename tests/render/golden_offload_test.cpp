// Golden still of the offload chapter at a key moment: optimizer and parameters on the host,
// each step's gradients and parameters on the PCIe lanes, its time against the step's compute.
#include <catch2/catch.hpp>

#include "tests/render/chapter_still.hpp"
#include "tests/render/golden.hpp"

TEST_CASE("golden offload: optimizer and parameters on the host, traffic on the PCIe link",
          "[golden][chapters]") {
    render_test::check_golden(
        "chapter_offload",
        render_test::chapter_png("tests/storyboards/good/kind_offload.yaml", "offload", 24.4));
}
