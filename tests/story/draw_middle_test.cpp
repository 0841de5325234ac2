// middle_of (story/draw/text.hpp): the y a line of text is centred on, centred_baseline's inverse.
#include "story/draw/text.hpp"
#include "tests/catch.hpp"

using namespace story;

TEST_CASE("middle_of inverts centred_baseline and sits above the baseline", "[draw][text]") {
    const ApproxTextMetrics m;
    for (Role r : {Role::title, Role::body, Role::label, Role::small}) {
        const TextStyle style = style_of(r);
        const Text line{0, centred_baseline(m, "GPU 3", style, 500), "GPU 3", style, {}};
        CHECK(middle_of(m, line) == Approx(500));
        CHECK(middle_of(m, line) < line.y);
    }
}
