// storyboards/schema.json against the loader: the committed file is what `shardreel schema`
// prints, and it names exactly the keys, chapter kinds, `set:` names, presets, ranges and keywords
// the loader knows, so editors complete and flag what shardreel will. Validating storyboards
// with it is the job of two real validators (tests/story/validate_schema.py, _ajv.mjs).
#include "story/load/schema.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string_view>

#include "engine/presets.hpp"
#include "story/chapter/chapter.hpp"
#include "story/load/schema_keys.hpp"
#include "story/storyboard/limits.hpp"
#include "story/storyboard/settings.hpp"
#include "tests/catch.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const fs::path kSource = SHARDREEL_SOURCE_DIR;

std::string slurp(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream buf;
    buf << in.rdbuf();
    return buf.str();
}

const json& schema() {
    static const json s = json::parse(slurp(kSource / "storyboards/schema.json"));
    return s;
}

std::vector<fs::path> yaml_files(const fs::path& dir) {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".yaml") out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

std::set<std::string> keys_of(const json& object) {
    std::set<std::string> out;
    for (const auto& [key, value] : object.items()) out.insert(key);
    return out;
}

std::set<std::string> strings_of(const json& array) {
    std::set<std::string> out;
    for (const auto& s : array) out.insert(s.get<std::string>());
    return out;
}

template <class Range>
std::set<std::string> set_of(const Range& names) {
    return {names.begin(), names.end()};
}

// name by value: GCC 14 takes a reference bound to a temporary argument for a dangling result.
const json& definition(std::string_view name) {
    return schema().at("definitions").at(std::string(name));
}

// The schema object for each place the loader reads keys from.
const json& schema_object_for(const std::string& where) {
    if (where == "top") return schema();
    return definition(where == "model" ? "model_map" : where);
}

// Calls visit(key, subschema) for every entry of every `properties` map in the schema.
void each_property(const json& node,
                   const std::function<void(const std::string&, const json&)>& visit) {
    if (node.is_object()) {
        if (auto p = node.find("properties"); p != node.end() && p->is_object())
            for (const auto& [key, sub] : p->items()) visit(key, sub);
        for (const auto& [key, sub] : node.items()) each_property(sub, visit);
    } else if (node.is_array()) {
        for (const auto& sub : node) each_property(sub, visit);
    }
}

// The `$schema=` target of a storyboard's first line, resolved beside the storyboard.
std::optional<fs::path> schema_comment(const fs::path& storyboard) {
    std::istringstream in(slurp(storyboard));
    std::string first;
    std::getline(in, first);
    const std::string prefix = "# yaml-language-server: $schema=";
    if (first.rfind(prefix, 0) != 0) return std::nullopt;
    return fs::weakly_canonical(storyboard.parent_path() / first.substr(prefix.size()));
}

}  // namespace

TEST_CASE("storyboards/schema.json is what `shardreel schema` prints", "[schema]") {
    INFO("regenerate it: build/shardreel schema > storyboards/schema.json");
    CHECK(slurp(kSource / "storyboards/schema.json") == story::storyboard_schema());
}

TEST_CASE("shipped storyboards point editors at the schema", "[schema]") {
    const fs::path target = fs::weakly_canonical(kSource / "storyboards/schema.json");
    for (const fs::path& f : yaml_files(kSource / "storyboards")) {
        INFO(f.string());
        CHECK(schema_comment(f) == target);
    }
    // Fixtures may go without the line (their positions are pinned by tests), but never point
    // elsewhere.
    for (const fs::path& f : yaml_files(kSource / "tests/storyboards/good")) {
        INFO(f.string());
        const auto pointed = schema_comment(f);
        CHECK((!pointed || *pointed == target));
    }
}

TEST_CASE("the schema lists every key the loader accepts, and no other", "[schema]") {
    for (const story::KeySet& set : story::loader_keys()) {
        INFO(set.where);
        const json& object = schema_object_for(set.where);
        CHECK(object.at("additionalProperties") == false);
        CHECK(keys_of(object.at("properties")) == set_of(set.keys));
        CHECK(set_of(object.value("required", std::vector<std::string>{})) == set_of(set.required));
    }
}

TEST_CASE("the schema lists every chapter kind and what each may set", "[schema]") {
    CHECK(strings_of(definition("chapter").at("properties").at("kind").at("enum")) ==
          set_of(story::kind_names()));
    std::set<std::string> conditioned;
    for (const json& rule : definition("chapter").at("allOf")) {
        const std::string kind = rule.at("if").at("properties").at("kind").at("const");
        conditioned.insert(kind);
        const json& set =
            rule.at("then").at("properties").at("beats").at("items").at("properties").at("set");
        INFO(kind);
        REQUIRE(story::find_kind(kind) != nullptr);
        const auto& settable = story::find_kind(kind)->settable;
        if (settable.empty())
            CHECK(set.at("maxProperties") == 0);  // `propertyNames: {enum: []}` is not draft-07
        else
            CHECK(strings_of(set.at("propertyNames").at("enum")) == set_of(settable));
    }
    CHECK(conditioned == set_of(story::kind_names()));
}

TEST_CASE("the schema lists every flat setting name and preset", "[schema]") {
    const auto names = set_of(story::setting_names());
    CHECK(keys_of(definition("setting").at("properties")) == names);
    CHECK(keys_of(definition("set").at("properties")) == names);
    std::set<std::string> models, gpus;
    for (const auto& m : engine::model_presets()) models.insert(m.name);
    for (const auto& g : engine::gpu_presets()) gpus.insert(g.name);
    CHECK(strings_of(definition("model_name").at("anyOf")[0].at("enum")) == models);
    CHECK(strings_of(definition("setting").at("properties").at("gpu").at("enum")) == gpus);
}

TEST_CASE("every range and keyword in the schema is limits.hpp's, and all of them are there",
          "[schema]") {
    std::set<std::string> ranges, keywords;
    each_property(schema(), [&](const std::string& key, const json& sub) {
        INFO(key);
        if (sub.value("type", "") == "integer") {
            const story::limits::Bound* b = story::limits::find_whole_number(key);
            REQUIRE(b != nullptr);
            CHECK(sub.at("minimum") == b->lo);
            CHECK(sub.at("maximum") == b->hi);
            ranges.insert(key);
        } else if (const story::limits::Choice* c = story::limits::find_choice(key);
                   c && sub.contains("enum")) {
            std::set<std::string> expected = set_of(c->names);
            expected.insert(c->aliases.begin(), c->aliases.end());
            std::set<std::string> listed;
            for (const json& name : sub.at("enum"))
                if (name.is_string()) listed.insert(name.get<std::string>());
            CHECK(listed == expected);
            keywords.insert(key);
        }
    });
    std::set<std::string> bounds, choices;
    for (const auto& b : story::limits::kWholeNumbers) bounds.emplace(b.key);
    for (const auto& c : story::limits::kChoices) choices.emplace(c.key);
    CHECK(ranges == bounds);
    CHECK(keywords == choices);
}

TEST_CASE("the schema's flags and captions take YAML 1.1's booleans", "[schema]") {
    std::set<std::string> words;
    for (const auto& w : story::limits::kTrueWords) words.emplace(w);
    for (const auto& w : story::limits::kFalseWords) words.emplace(w);
    const json& flag = definition("flag").at("anyOf");
    CHECK(flag[0] == json{{"type", "boolean"}});
    CHECK(strings_of(flag[1].at("enum")) == words);
    const json& captions = definition("video").at("properties").at("captions").at("enum");
    CHECK(std::count(captions.begin(), captions.end(), json(false)) == 1);
    CHECK(std::count(captions.begin(), captions.end(), json(true)) == 0);
}
