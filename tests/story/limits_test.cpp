// Storyboard limits: the nesting scan that guards the YAML parser, the document size, frame sizes,
// that the shipped storyboards stay far inside every bound, and that the table of ranges and
// keywords agrees with the parsers and with README.
#include "story/limits.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/config.hpp"
#include "story/format.hpp"
#include "story/load.hpp"
#include "story/theme.hpp"

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

namespace {

// README.md's text from `heading` to the next section, its whitespace collapsed to single spaces
// (the file wraps at 100 columns).
std::string readme_section(const std::string& heading) {
    std::ifstream in(std::filesystem::path(SHARDREEL_SOURCE_DIR) / "README.md");
    std::ostringstream buf;
    buf << in.rdbuf();
    const std::string text = buf.str();
    const std::size_t start = text.find("\n## " + heading + "\n");
    REQUIRE(start != std::string::npos);
    std::string out;
    for (std::size_t i = start + 1; i < text.size(); ++i) {
        if (text.compare(i, 4, "\n## ") == 0) break;
        const bool space = text[i] == ' ' || text[i] == '\n';
        if (!space || (!out.empty() && out.back() != ' ')) out += space ? ' ' : text[i];
    }
    return out;
}

}  // namespace

TEST_CASE("README states every limit and keyword as limits.hpp has it") {
    using namespace story::limits;
    const std::string reliability = readme_section("Reliability");
    for (const Bound& b : kWholeNumbers) {
        const std::string stated = "`" + std::string(b.key) + "` " + story::format_int(b.lo) +
                                   ".." + story::format_int(b.hi);
        INFO(stated);
        CHECK(reliability.find(stated) != std::string::npos);
    }
    for (const std::string& stated :
         {std::to_string(kMaxStoryboardBytes >> 20) + " MiB, checked before parsing",
          std::to_string(kMaxNesting) + " levels of collections",
          "at most " + story::format_int(kMaxYamlNodes) + " nodes",
          std::to_string(kMinSide) + "x" + std::to_string(kMinSide) + " to " +
              std::to_string(kMaxWidth) + "x" + std::to_string(kMaxHeight),
          "gpus_per_node x nodes at most " + story::format_int(kMaxGpus)}) {
        INFO(stated);
        CHECK(reliability.find(stated) != std::string::npos);
    }
    for (const Range& r : kRanges) {
        char stated[96];
        std::snprintf(stated, sizeof stated, "`%s` %g..%g%s%s", std::string(r.key).c_str(), r.lo,
                      r.hi, r.unit.empty() ? "" : " ", std::string(r.unit).c_str());
        INFO(stated);
        CHECK(reliability.find(stated) != std::string::npos);
    }
    const std::string storyboards = readme_section("Storyboards (schema version 1)");
    for (const Choice& c : kChoices) {
        std::string stated = "`" + std::string(c.key) + "`";
        for (std::size_t i = 0; i < c.names.size(); ++i)
            stated += (i == 0 ? " " : "|") + std::string(c.names[i]);
        INFO(stated);
        CHECK(storyboards.find(stated) != std::string::npos);
    }
    std::string voices = "`voice`";
    for (std::string_view e : kVoiceEngines)
        voices += (voices.size() == 7 ? " " : "|") + std::string(e) +
                  (engine_names_voice(e) ? ":VOICE" : "");
    INFO(voices);
    CHECK(storyboards.find(voices) != std::string::npos);
}

namespace {

// Every name and alias of the table's `key` parses, and every value's name (found by ADL
// to_string) is one of the table's names.
template <class Parse, class Value, std::size_t N>
void check_keyword(std::string_view key, Parse parse, const Value (&values)[N]) {
    const story::limits::Choice* c = story::limits::find_choice(key);
    REQUIRE(c != nullptr);
    for (const auto* list : {&c->names, &c->aliases})
        for (std::string_view name : *list) {
            INFO(key << ": " << name);
            CHECK(parse(name));
        }
    for (const Value& v : values) {
        INFO(key << ": " << to_string(v));
        CHECK(std::ranges::count(c->names, to_string(v)) == 1);
    }
    CHECK(c->names.size() == N);
}

}  // namespace

TEST_CASE("each keyword in the table parses, and names each value once") {
    using namespace engine;
    check_keyword("precision", parse_precision,
                  {Precision::fp32, Precision::bf16_mixed, Precision::fp8_mixed});
    check_keyword("grad_dtype", parse_grad_dtype, {GradDtype::bf16, GradDtype::fp32});
    check_keyword("recompute", parse_recompute,
                  {Recompute::none, Recompute::selective, Recompute::full});
    check_keyword("schedule", parse_schedule,
                  {Schedule::gpipe, Schedule::one_f_one_b, Schedule::interleaved, Schedule::zb_h1,
                   Schedule::zb_h2, Schedule::dualpipe});
    check_keyword("theme", story::parse_theme, {story::ThemeName::dark, story::ThemeName::light});
}
