// storyboards/schema.json against the loader: every shipped storyboard and good fixture
// validates, broken ones do not, and the schema names exactly the keys, chapter kinds, `set:`
// names and presets the loader knows, so editors complete and flag what shardreel will.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "engine/presets.hpp"
#include "story/chapter.hpp"
#include "story/schema_keys.hpp"
#include "story/settings.hpp"
#include "tests/story/json_schema.hpp"

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

std::vector<std::string> schema_errors(const fs::path& storyboard) {
    return schema_test::validate(schema(), schema_test::yaml_to_json(slurp(storyboard)));
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

const json& definition(const std::string& name) { return schema().at("definitions").at(name); }

// The schema's property list for each place the loader reads keys from.
std::set<std::string> schema_keys_for(const std::string& where) {
    const json& top = schema().at("properties");
    if (where == "top") return keys_of(top);
    if (where == "video" || where == "defaults") return keys_of(top.at(where).at("properties"));
    if (where == "model") return keys_of(definition("model_map").at("properties"));
    return keys_of(definition(where).at("properties"));
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

TEST_CASE("every shipped storyboard and good fixture validates against the schema", "[schema]") {
    auto files = yaml_files(kSource / "storyboards");
    for (const auto& f : yaml_files(kSource / "tests/storyboards/good")) files.push_back(f);
    REQUIRE(files.size() > 5);
    for (const fs::path& f : files) {
        INFO(f.string());
        const auto errors = schema_errors(f);
        for (const auto& e : errors) UNSCOPED_INFO(e);
        CHECK(errors.empty());
    }
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

TEST_CASE("broken storyboards fail the schema where the schema can tell", "[schema]") {
    // Errors a schema cannot see (duplicates, beats past the end, configurations the cost model
    // rejects, YAML syntax) are the loader's alone.
    for (const char* name : {"unknown_key",
                             "unknown_kind",
                             "unknown_precision",
                             "unknown_theme",
                             "unknown_model",
                             "bad_chapter_id",
                             "bad_bandwidth",
                             "bad_time_unit",
                             "fps_out_of_range",
                             "fps_not_a_number",
                             "missing_version",
                             "wrong_version",
                             "missing_chapters",
                             "missing_id_and_kind",
                             "model_map_incomplete",
                             "not_a_bool",
                             "set_kind_has_none",
                             "set_kind_lacks_param",
                             "setting_in_wrong_place",
                             "zero_stage_out_of_range",
                             "unsupported_optimizer",
                             "chapters_not_a_list",
                             "tp_not_whole",
                             "unparsable_video_size"}) {
        INFO(name);
        CHECK_FALSE(schema_errors(kSource / "tests/storyboards/bad" / (std::string(name) + ".yaml"))
                        .empty());
    }
    const auto errors = schema_errors(kSource / "tests/storyboards/bad/unknown_key.yaml");
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].find("unknown key") != std::string::npos);
}

TEST_CASE("the schema lists every key the loader accepts, and no other", "[schema]") {
    for (const story::KeySet& set : story::loader_keys()) {
        INFO(set.where);
        CHECK(schema_keys_for(set.where) == set_of(set.keys));
    }
}

TEST_CASE("the schema lists every chapter kind and what each may set", "[schema]") {
    CHECK(strings_of(definition("chapter").at("properties").at("kind").at("enum")) ==
          set_of(story::kind_names()));
    std::set<std::string> conditioned;
    for (const json& rule : definition("chapter").at("allOf")) {
        const std::string kind = rule.at("if").at("properties").at("kind").at("const");
        conditioned.insert(kind);
        const json& names = rule.at("then")
                                .at("properties")
                                .at("beats")
                                .at("items")
                                .at("properties")
                                .at("set")
                                .at("propertyNames")
                                .at("enum");
        INFO(kind);
        REQUIRE(story::find_kind(kind) != nullptr);
        CHECK(strings_of(names) == set_of(story::find_kind(kind)->settable));
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

TEST_CASE("the schema's unit patterns accept what the loader parses", "[schema]") {
    const auto accepts = [](const std::string& def, const json& value) {
        return schema_test::validate(
                   schema(),
                   json{{"shardreel", 1},
                        {"chapters",
                         json::array({{{"id", "a"},
                                       {"kind", "title"},
                                       {"duration", def == "time" ? value : json("1s")},
                                       {"cluster", def == "bandwidth" ? json{{"nvlink", value}}
                                                                      : json::object()},
                                       {"model", def == "count" ? value : json("7B")}}})}})
            .empty();
    };
    for (const char* t : {"1.5s", "500ms", "45f", "2", "0.25 s"}) CHECK(accepts("time", t));
    for (const char* t : {"1.5 min", "s", "-1s", "1h"}) CHECK_FALSE(accepts("time", t));
    CHECK(accepts("time", 3));
    for (const char* b : {"900GB/s", "400Gb/s", "1.5TB/s", "100GiB/s"})
        CHECK(accepts("bandwidth", b));
    for (const char* b : {"900GB", "90GBs", "fast"}) CHECK_FALSE(accepts("bandwidth", b));
    for (const char* c : {"7B", "1.5M", "70e9", "llama-2-70b"}) CHECK(accepts("count", c));
    CHECK(accepts("count", 70e9));
    CHECK_FALSE(accepts("count", "7 billion"));
}
