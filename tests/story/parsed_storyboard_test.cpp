// A storyboard's text parsed once (story::ParsedStoryboard) and resolved in each of its
// languages, as the commands load several languages of one file.
#include "story/load/load.hpp"
#include "tests/catch.hpp"
#include "tests/story/expectations.hpp"

namespace {

const std::string kSource = SHARDREEL_SOURCE_DIR;

using story_test::slurp;

}  // namespace

TEST_CASE("a storyboard parsed once resolves in each language as parsing it again does") {
    const std::string path = kSource + "/tests/storyboards/good/languages.yaml", text = slurp(path);
    const story::ParsedStoryboard parsed = story::parse_storyboard_text(text, path);
    REQUIRE(parsed.tree);
    CHECK(parsed.errors.empty());
    for (const std::string lang : {"", "en", "de", "ar"}) {
        INFO(lang);
        story::Diagnostics once, again;
        std::vector<story::Diagnostic> once_warnings, again_warnings;
        const auto resolved = story::resolve_storyboard(parsed, once, once_warnings, lang);
        const auto reparsed = story::parse_storyboard(text, path, again, again_warnings, lang);
        REQUIRE(resolved);
        CHECK(resolved == reparsed);
        CHECK(once_warnings == again_warnings);
    }
    // The parse's own errors are every resolution's.
    const story::ParsedStoryboard bad = story::parse_storyboard_text("a: [", "bad.yaml");
    CHECK_FALSE(bad.tree);
    for (int i = 0; i < 2; ++i) {
        story::Diagnostics diags;
        std::vector<story::Diagnostic> warnings;
        CHECK_FALSE(story::resolve_storyboard(bad, diags, warnings));
        CHECK(diags.format() == bad.errors.format());
    }
}
