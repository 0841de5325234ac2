// The storyboard loader as the story tests call it: a storyboard's text parsed (and timed as the
// commands time it), failing the test on a diagnostic, or its diagnostics as the loader prints
// them.
#pragma once
#include <string>
#include <vector>

#include "story/load/load.hpp"
#include "story/load/timed.hpp"
#include "tests/catch.hpp"

namespace story_test {

inline story::Storyboard load_ok(const std::string& text) {
    story::Diagnostics diags;
    auto sb = story::parse_storyboard(text, "test.yaml", diags);
    INFO(diags.format());
    REQUIRE(sb);
    return *sb;
}

inline std::string errors_of(const std::string& text) {
    story::Diagnostics diags;
    auto sb = story::parse_storyboard(text, "test.yaml", diags);
    CHECK_FALSE(sb);
    return diags.format();
}

// As the commands read it: parsed, the reading estimates for speech, timed.
inline story::Storyboard timed_ok(const std::string& text) {
    story::Diagnostics diags;
    std::vector<story::Diagnostic> warnings;
    auto sb = story::load_timed(text, "test.yaml", diags, warnings);
    INFO(story::format_diagnostics(diags, warnings));
    REQUIRE(sb);
    return *sb;
}

}  // namespace story_test
