// Storyboard limits: the nesting scan that guards the YAML parser, the document size, frame sizes,
// and that the shipped storyboards stay far inside every bound.
#include "story/limits.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "story/load.hpp"

namespace {

using story::limits::yaml_nesting;

std::string errors_of(const std::string& text) {
    story::Diagnostics diags;
    CHECK_FALSE(story::parse_storyboard(text, "x.yaml", diags));
    return diags.format();
}

}  // namespace

TEST_CASE("nesting counts block indentation, compact entries and brackets") {
    CHECK(yaml_nesting("a: 1\n").depth == 1);
    CHECK(yaml_nesting("a:\n  b:\n    c: 1\n").depth == 3);
    CHECK(yaml_nesting("a:\n  - - - x\n").depth == 5);
    CHECK(yaml_nesting("a: [[1], {b: [2]}]\n").depth == 4);
    CHECK(yaml_nesting("a: [\n  [\n    [1]]]\n").depth == 4);
    CHECK(yaml_nesting("a:\n  b: 1\nc: [[[2]]]\n").depth == 4);
    CHECK(yaml_nesting("a: &x [[1]]\nb: !!seq [[2]]\n").depth == 3);
    const story::limits::Nesting deep = yaml_nesting("a: 1\nb: [[[[x]]]]\n");
    CHECK(deep.depth == 5);
    CHECK(deep.line == 2);
}

TEST_CASE("brackets inside comments, quotes and block scalars do not nest") {
    CHECK(yaml_nesting("a: 1 # [[[[\n").depth == 1);
    CHECK(yaml_nesting("a: '[[[['\nb: \"[[[\\\"[\"\n").depth == 1);
    CHECK(yaml_nesting("a: 'it''s [[[\n  still [[ quoted'\n").depth == 1);
    CHECK(yaml_nesting("a: |\n  [[[[\n      {{{{\nb: 1\n").depth == 1);
    CHECK(yaml_nesting("say: it's [fine]\n").depth == 1);
}

TEST_CASE("the shipped storyboards nest far less than the limit") {
    const std::filesystem::path root(SHARDREEL_SOURCE_DIR);
    for (const char* dir : {"storyboards", "tests/storyboards/good"}) {
        for (const auto& entry : std::filesystem::directory_iterator(root / dir)) {
            if (entry.path().extension() != ".yaml") continue;
            std::ifstream in(entry.path());
            std::ostringstream text;
            text << in.rdbuf();
            INFO(entry.path());
            CHECK(yaml_nesting(text.str()).depth <= 8);
        }
    }
}

TEST_CASE("a storyboard over 1 MiB is refused before it is parsed") {
    const std::string text =
        "shardreel: 1\ntitle: " + std::string(story::limits::kMaxStoryboardBytes, 'a');
    CHECK(errors_of(text) == "x.yaml: error: the storyboard is " + std::to_string(text.size()) +
                                 " bytes, more than the 1 MiB (1048576 bytes) allowed\n");
}

TEST_CASE("nesting deeper than the limit is refused, at the limit it is not") {
    auto nested = [](int depth) {
        return "shardreel: 1\ntitle: " + std::string(depth - 1, '[') + "x" +
               std::string(depth - 1, ']') + "\nchapters: [{id: a, kind: title}]\n";
    };
    CHECK(errors_of(nested(story::limits::kMaxNesting + 1)) ==
          "x.yaml:2:1: error: YAML nesting deeper than 32 levels\n");
    story::Diagnostics diags;
    story::parse_storyboard(nested(story::limits::kMaxNesting), "x.yaml", diags);
    CHECK(diags.format() == "x.yaml:2:8: error: expected a single value for 'title', got a list\n");
}

TEST_CASE("frame sizes are bounded and even") {
    using story::limits::frame_size_error;
    CHECK_FALSE(frame_size_error({7680, 4320}, "7680x4320"));
    CHECK_FALSE(frame_size_error({16, 16}, "16x16"));
    CHECK(frame_size_error({7682, 4320}, "7682x4320") ==
          std::optional<std::string>(
              "video size must be between 16x16 and 7680x4320, got 7682x4320"));
    CHECK(frame_size_error({14, 100}, "14x100"));
    CHECK(frame_size_error({321, 180}, "321x180") ==
          std::optional<std::string>(
              "video size must have an even width and height (H.264 4:2:0), got 321x180"));
}
