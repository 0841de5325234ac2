// docs/reference/settings.md, written from the one settings table (story::settings()) with the
// limits its values are checked against: every key a storyboard's sections and `set:` take, and
// the flag `numbers` and `plan` take for it. SHARDREEL_REGEN_DOCS=1 rewrites it:
// `SHARDREEL_REGEN_DOCS=1 build/test_story '[docs]'`.
#include <cstdio>

#include "story/storyboard/limits.hpp"
#include "story/storyboard/settings.hpp"
#include "story/text/format.hpp"
#include "tests/catch.hpp"
#include "tests/story/lines.hpp"
#include "tests/story/regen.hpp"

namespace fs = std::filesystem;
using namespace story;

namespace {

std::string section_of(SettingSection s) { return std::string("`") + section_name(s) + ":`"; }

std::string number(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}

// What a setting's value may be, as its limits say.
std::string values_of(const SettingSpec& s) {
    switch (s.type) {
        case SettingType::model:
            return "a model preset (`shardreel numbers --help` lists them) or a parameter count: "
                   "`7B`, `70e9`";
        case SettingType::gpu:
            return "a GPU preset (`shardreel numbers --help` lists them)";
        case SettingType::flag:
            return "`true` or `false` (any YAML 1.1 boolean)";
        case SettingType::bandwidth:
            return "a bandwidth: `900GB/s`, `400Gb/s`";
        case SettingType::choice: {
            std::string out;
            for (const std::string& n : limits::find_choice(s.name)->listed())
                out += (out.empty() ? "`" : ", `") + n + "`";
            return out;
        }
        case SettingType::whole: {
            const limits::Bound* b = limits::find_whole_number(s.name);
            return "a whole number, " + format_int(b->lo) + ".." + format_int(b->hi);
        }
        case SettingType::ranged: {
            const limits::Range* r = limits::find_range(s.name);
            return "a number, " + number(r->lo) + ".." + number(r->hi) + " " + std::string(r->unit);
        }
    }
    return "";
}

// A table cell: '|' escaped.
std::string cell(const std::string& text) {
    std::string out;
    for (const char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out;
}

std::string settings_reference() {
    std::string out =
        "# Settings reference\n\n"
        "Generated from the settings table (`story/storyboard/settings.cpp`) and the limits its "
        "values are\nchecked against (`story/storyboard/limits.hpp`) by "
        "`tests/story/reference_test.cpp`; rewrite it with\n"
        "`SHARDREEL_REGEN_DOCS=1 build/test_story '[docs]'`. Each setting is a key of its "
        "storyboard section\n(`defaults:` or a chapter), a key of a `set:` beat, and a flag of "
        "`numbers` and `plan`\n([numbers](../commands/numbers.md), [plan](../commands/plan.md); "
        "`plan` decides some of them itself).\n"
        "The [storyboard guide](../storyboard.md) explains the sections.\n\n"
        "| key | section | flag | value | meaning |\n|---|---|---|---|---|\n";
    for (const SettingSpec& s : settings())
        out += "| `" + s.name + "` | " + section_of(s.section) + " | `" + s.flag + "` | " +
               cell(values_of(s)) + " | " + cell(s.help) + " |\n";
    return out;
}

}  // namespace

TEST_CASE("docs/reference/settings.md is the settings table's", "[docs]") {
    const std::string doc = settings_reference();
    regen::check_or_write(fs::path(SHARDREEL_SOURCE_DIR) / "docs/reference/settings.md", doc,
                          "story");
    // A row per setting, each key once.
    for (const SettingSpec& s : settings()) {
        INFO(s.name);
        CHECK(story_test::lines_matching(doc, "\\| `" + s.name + "` \\|.*").size() == 1);
        CHECK_FALSE(values_of(s).empty());
    }
}
