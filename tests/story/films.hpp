// Shared by the tests that watch both shipped films in every language (choreography, hold): a
// film timed by reading estimates, as `narration: off` and a silent check time it.
#pragma once
#include <string>
#include <vector>

#include "story/load/timed.hpp"
#include "tests/catch.hpp"
#include "tests/story/chapter_fixture.hpp"

namespace chapter_test {

// storyboards/<film> in `lang` ("": its own language).
inline story::Storyboard film_in(const std::string& film, const std::string& lang) {
    const std::string path = std::string(SHARDREEL_SOURCE_DIR) + "/storyboards/" + film;
    story::Diagnostics diags;
    std::vector<story::Diagnostic> warnings;
    auto board = story::load_timed(slurp(path), path, diags, warnings, {}, lang);
    INFO(diags.format());
    REQUIRE(board);
    return *board;
}

}  // namespace chapter_test
