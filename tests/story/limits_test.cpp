// Storyboard limits: the nesting scan that guards the YAML parser, the document size, frame sizes,
// that the shipped storyboards stay far inside every bound, that each bound and keyword of the
// table is the one the settings and the loader enforce, and that docs/reliability.md's table of
// limits has it.
#include "story/storyboard/limits.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "engine/config.hpp"
#include "story/load/load.hpp"
#include "story/scene/theme.hpp"
#include "story/storyboard/diagnostics.hpp"
#include "story/storyboard/settings.hpp"
#include "story/text/format.hpp"
#include "tests/catch.hpp"

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

using story::limits::Bound;
using story::limits::Choice;
using story::limits::Range;
using Error = std::optional<std::string>;

// Written out here rather than taken from the code that builds them.
std::string out_of_bounds(const Bound& b, long long got) {
    return "'" + std::string(b.key) + "' must be between " + std::to_string(b.lo) + " and " +
           std::to_string(b.hi) + ", got " + std::to_string(got);
}
std::string plain(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}
std::string in_unit(const Range& r, double v) { return plain(v) + std::string(r.unit); }
std::string out_of_range(const Range& r, double got) {
    return "'" + std::string(r.key) + "' must be between " + in_unit(r, r.lo) + " and " +
           in_unit(r, r.hi) + ", got " + in_unit(r, got);
}
// Below the range: half a positive bound, one under any other (a value under 0 does not parse
// where 0 is the bound, so there is none to try).
std::optional<double> under(const Range& r) {
    if (r.lo > 0) return r.lo / 2;
    if (r.lo < 0) return r.lo - 1;
    return std::nullopt;
}

// Applies key=value on one GPU of one node, so that gpus_per_node and nodes meet only their own
// bound and not their product's.
Error set_alone(const std::string& key, const std::string& value) {
    engine::Config c = story::default_config();
    c.cluster.gpus_per_node = c.cluster.nodes = c.layout.gpus = 1;
    return story::apply_setting(c, key, value);
}

// For a key the loader reads outside `set:` and a model's fields: the line of a storyboard that
// gives it `V`.
const std::map<std::string_view, std::string> kPlaces = {
    {"fps", "video: {fps: V}"},
    {"wpm", "video: {narration: {voice: 'espeak-ng:en-us', wpm: V}}"},
    {"gap", "video: {narration: {voice: 'espeak-ng:en-us', gap: V}}"},
    {"tail", "video: {narration: {voice: 'espeak-ng:en-us', tail: V}}"},
    {"music_level", "video: {music: a.ogg, music_level: V}"},
    {"theme", "video: {theme: V}"},
    {"captions", "video: {captions: V}"},
    {"fit", "chapters: [{id: a, kind: title, duration: 5s, fit: V}]"},
};
// Any other key: a model map's fields, with `key` set to V: a mixture of experts with a dense first
// layer, so that every field is read.
std::string model_place(std::string_view key) {
    std::vector<std::pair<std::string, std::string>> fields = {
        {"layers", "4"},  {"hidden", "256"}, {"heads", "4"},
        {"experts", "8"}, {"top_k", "2"},    {"dense_layers", "1"}};
    const auto it = std::ranges::find(fields, key, &std::pair<std::string, std::string>::first);
    if (it != fields.end())
        it->second = "V";
    else
        fields.emplace_back(key, "V");
    std::string map;
    for (const auto& [k, v] : fields) map += (map.empty() ? "" : ", ") + k + ": " + v;
    return "defaults: {model: {" + map + "}}";
}
// What the loader reports for `key: value` where it reads the key, each line as "L:C: message"
// (the file's name left off).
struct Loaded {
    std::string value_at;  // "L:C" of the value in the text
    std::vector<std::string> diagnostics;
};
Loaded load_with(std::string_view key, const std::string& value) {
    const auto place = kPlaces.find(key);
    std::string text = place != kPlaces.end() ? place->second : model_place(key);
    const std::string given = std::string(key) + ": V";
    const std::size_t at = text.find(given);
    REQUIRE(at != std::string::npos);
    text.replace(at + given.size() - 1, 1, value);
    if (!text.starts_with("chapters:")) text += "\nchapters: [{id: a, kind: title, duration: 5s}]";
    text = "shardreel: 1\n" + text + "\n";
    story::Diagnostics diags;
    story::parse_storyboard(text, "x.yaml", diags);
    Loaded out{"2:" + std::to_string(at + given.size()), {}};
    std::istringstream lines(diags.format());
    for (std::string line; std::getline(lines, line);) out.diagnostics.push_back(line.substr(7));
    return out;
}

// Whether the loader takes `value` for key: nothing reported at the value (a model may still be
// refused as a whole, for its shape).
bool loads(std::string_view key, const std::string& value) {
    const Loaded l = load_with(key, value);
    return std::ranges::none_of(
        l.diagnostics, [&](const std::string& d) { return d.starts_with(l.value_at + ":"); });
}
using Refusal = std::pair<std::string, std::string>;  // a value and the message it gets

// key takes each of `taken` and refuses each value of `refused` with its message and nothing
// else: through apply_setting when key is a setting of `type`, else through the loader, at the
// value.
void check_bounds(std::string_view key, story::SettingType type,
                  const std::vector<std::string>& taken, const std::vector<Refusal>& refused) {
    const std::string name(key);
    INFO(name);
    const bool setting = story::setting_type(name) == type;
    for (const std::string& v : taken) {
        INFO("takes " << v);
        CHECK((setting ? set_alone(name, v) == Error{} : loads(key, v)));
    }
    for (const auto& [v, message] : refused) {
        if (setting) {
            CHECK(set_alone(name, v) == message);
            continue;
        }
        const Loaded l = load_with(key, v);
        CHECK(l.diagnostics == std::vector{l.value_at + ": error: " + message});
    }
}

}  // namespace

TEST_CASE("every whole number takes its table's bounds and refuses one past them, in its words") {
    for (const Bound& b : story::limits::kWholeNumbers)
        check_bounds(b.key, story::SettingType::whole, {std::to_string(b.lo), std::to_string(b.hi)},
                     {{std::to_string(b.hi + 1), out_of_bounds(b, b.hi + 1)},
                      {std::to_string(b.lo - 1), out_of_bounds(b, b.lo - 1)}});
}

TEST_CASE("every real number takes its table's range and refuses values outside it, in its words") {
    for (const Range& r : story::limits::kRanges) {
        std::vector<Refusal> outside{{in_unit(r, r.hi + 1), out_of_range(r, r.hi + 1)}};
        if (const auto u = under(r)) outside.push_back({in_unit(r, *u), out_of_range(r, *u)});
        check_bounds(r.key, story::SettingType::ranged, {in_unit(r, r.lo), in_unit(r, r.hi)},
                     outside);
    }
}

TEST_CASE("every keyword takes its table's names and refuses another, listing them") {
    for (const Choice& c : story::limits::kChoices) {
        std::vector<std::string> names(c.names.begin(), c.names.end());
        names.insert(names.end(), c.aliases.begin(), c.aliases.end());
        check_bounds(c.key, story::SettingType::choice, names,
                     {{"zzz", "unknown " + std::string(c.key) + " 'zzz' (expected " +
                                  story::or_list(c.listed()) + ")"}});
    }
}

TEST_CASE("a cluster of more GPUs than the limit is refused though each side is in bounds") {
    using story::limits::kMaxGpus;
    engine::Config c = story::default_config();
    REQUIRE(story::apply_setting(c, "nodes", "1") == Error{});
    REQUIRE(story::apply_setting(c, "gpus_per_node", std::to_string(kMaxGpus)) == Error{});
    CHECK(story::apply_setting(c, "nodes", "2") ==
          "gpus_per_node x nodes = " + std::to_string(2 * kMaxGpus) + " exceeds " +
              std::to_string(kMaxGpus) + " GPUs");
}

namespace {

// docs/reliability.md's table of limits: each row's first cell and its second (the bound), the rows
// that follow the "| what | bound |" heading.
std::map<std::string, std::string> documented_limits() {
    std::ifstream in(std::filesystem::path(SHARDREEL_SOURCE_DIR) / "docs/reliability.md");
    std::map<std::string, std::string> rows;
    bool inside = false;  // past the heading
    for (std::string line; std::getline(in, line);) {
        if (line == "| what | bound |") inside = true;
        if (!inside || line == "| what | bound |" || line.starts_with("|---")) continue;
        if (!line.starts_with("| ")) break;
        const std::size_t bar = line.find(" | ", 2);
        if (bar != std::string::npos)
            rows[line.substr(2, bar - 2)] = line.substr(bar + 3, line.size() - bar - 5);
    }
    return rows;
}

}  // namespace

TEST_CASE("docs/reliability.md's table of limits gives every bound as limits.hpp has it") {
    using namespace story::limits;
    const auto rows = documented_limits();
    REQUIRE(rows.size() >= 10);
    // Each bound, written as the table writes it, in exactly one row.
    const auto in_one_row = [&](const std::string& stated) {
        INFO(stated);
        CHECK(std::ranges::count_if(rows, [&](const auto& row) {
                  return row.second.find(stated) != std::string::npos;
              }) == 1);
    };
    for (const Bound& b : kWholeNumbers)
        in_one_row("`" + std::string(b.key) + "` " + story::format_int(b.lo) + ".." +
                   story::format_int(b.hi));
    for (const Range& r : kRanges)
        in_one_row("`" + std::string(r.key) + "` " + plain(r.lo) + ".." + plain(r.hi) +
                   (r.unit.empty() ? "" : " " + std::string(r.unit)));
    // The rows that state one constant each open with it.
    const std::pair<std::string, std::string> opening[] = {
        {"storyboard file", std::to_string(kMaxStoryboardBytes >> 20) + " MiB,"},
        {"YAML nesting", std::to_string(kMaxNesting) + " levels"},
        {"aliases and anchors", "at most " + story::format_int(kMaxYamlNodes) + " nodes"},
        {"explore", "at most " + std::to_string(kMaxExploreVariants) + " combinations"},
        {"frame size", std::to_string(kMinSide) + "x" + std::to_string(kMinSide) + " to " +
                           std::to_string(kMaxWidth) + "x" + std::to_string(kMaxHeight) + ","}};
    for (const auto& [row, starts] : opening) {
        INFO(row);
        REQUIRE(rows.contains(row));
        CHECK(rows.at(row).starts_with(starts));
    }
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
