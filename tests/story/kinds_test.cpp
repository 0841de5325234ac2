// What is derived from the kinds' registry and the schema, checked against the files that carry
// it: docs/storyboard.md's table of chapter kinds (from each KindInfo) and libFuzzer's storyboard
// dictionary (the schema's keys and values, then fuzz/syntax.dict). SHARDREEL_REGEN_DOCS=1 rewrites
// them: `SHARDREEL_REGEN_DOCS=1 build/test_story '[docs]'`.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "story/chapter/chapter.hpp"
#include "story/load/schema.hpp"
#include "tests/catch.hpp"
#include "tests/story/lines.hpp"
#include "tests/story/regen.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path kSource = SHARDREEL_SOURCE_DIR;

std::string duration_text(double seconds) {
    std::ostringstream out;
    out << seconds << " s";
    return out.str();
}

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
    return out.empty() ? "—" : out;
}

// docs/storyboard.md's table of kinds, a row per kind in the registry's (alphabetical) order.
std::string kinds_table() {
    std::string out =
        "| kind | still | default | `set:`-able | `show:` phases | shows |\n"
        "|---|---|---|---|---|---|\n";
    for (const story::KindInfo& k : story::chapter_kinds()) {
        const std::string png = k.goldens.empty() ? "" : k.goldens.front().png;
        std::string settable = joined(k.settable);
        if (*k.set_note) settable += std::string(" (") + k.set_note + ")";
        std::vector<std::string> phases;
        for (const story::Phase& p : k.phases) phases.push_back(p.name);
        out += "| `" + k.name + "` | <img src=\"../tests/golden/" + png +
               ".png\" width=\"240\" alt=\"" + k.name + " still\"> | " +
               duration_text(k.default_duration) + " | " + settable + " | " + joined(phases) +
               " | " + k.shows + " |\n";
    }
    return out;
}

void collect(const nlohmann::json& node, std::set<std::string>& keys,
             std::set<std::string>& values) {
    if (node.is_array())
        for (const auto& item : node) collect(item, keys, values);
    if (!node.is_object()) return;
    for (const auto& [name, value] : node.items()) {
        if (name == "properties")
            for (const auto& [key, unused] : value.items()) keys.insert(key);
        if (name == "enum")
            for (const auto& v : value)
                if (v.is_string()) values.insert(v.get<std::string>());
        collect(value, keys, values);
    }
}

// The schema's keys (alone and as `key: `) and string values, then fuzz/syntax.dict.
std::string fuzz_dictionary() {
    std::set<std::string> keys, values;
    collect(nlohmann::json::parse(story::storyboard_schema()), keys, values);
    std::string out =
        "# libFuzzer dictionary for storyboards, generated (tests/story/kinds_test.cpp): the "
        "schema's\n"
        "# keys and values, then fuzz/syntax.dict.\n";
    for (const std::string& k : keys) out += "\"" + k + "\"\n\"" + k + ": \"\n";
    for (const std::string& v : values)
        if (!keys.count(v)) out += "\"" + v + "\"\n";
    std::istringstream syntax(regen::slurp(kSource / "fuzz/syntax.dict"));
    for (std::string line; std::getline(syntax, line);)
        if (!line.starts_with("#")) out += line + "\n";
    return out;
}

}  // namespace

TEST_CASE("docs/storyboard.md's table of chapter kinds is the registry's", "[docs]") {
    const fs::path doc = kSource / "docs/storyboard.md";
    const std::string text = regen::slurp(doc);
    regen::check_or_write(doc, regen::with_block(text, "| kind | still |", kinds_table()), "story");
    // Every kind has its row, its still and its line; none is listed twice.
    for (const story::KindInfo& k : story::chapter_kinds()) {
        INFO(k.name);
        CHECK(std::string(k.shows).size() > 40);
        REQUIRE_FALSE(k.goldens.empty());
        CHECK(fs::exists(kSource / "tests/golden" / (std::string(k.goldens.front().png) + ".png")));
        CHECK(story_test::lines_matching(text, "\\| `" + k.name + "` \\|.*").size() == 1);
    }
}

TEST_CASE("the fuzz dictionary is the schema's keys and values and fuzz/syntax.dict", "[docs]") {
    const std::string dict = fuzz_dictionary();
    regen::check_or_write(kSource / "fuzz/storyboard.dict", dict, "story");
    for (const story::KindInfo& k : story::chapter_kinds())
        CHECK(story_test::has_line(dict, "\"" + k.name + "\""));
    for (const char* key : {"cp_split", "set", "pronounce"})
        CHECK(story_test::has_line(dict, "\"" + std::string(key) + ": \""));
}
