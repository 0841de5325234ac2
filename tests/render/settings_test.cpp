// One table describes every setting (story/storyboard/settings.hpp): each must be reachable from
// every surface, with the same effect: a storyboard's section and `set:`, its bounds or keywords in
// limits.hpp, the JSON Schema, and the flags of `numbers` and `plan`. A setting added to the table
// and missed by a surface fails here.
#include "story/storyboard/settings.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <set>

#include "render/cli/config_flags.hpp"
#include "story/load/schema.hpp"
#include "story/load/schema_keys.hpp"
#include "story/storyboard/limits.hpp"
#include "tests/catch.hpp"

namespace {

using story::SettingSection;

// The loader's section holding a setting: model is a key of defaults (and of a chapter) itself.
const char* loader_section(SettingSection s) {
    return s == SettingSection::model ? "defaults" : story::section_name(s);
}

bool loader_takes(const std::string& where, const std::string& key) {
    for (const story::KeySet& set : story::loader_keys())
        if (set.where == where) return std::ranges::count(set.keys, key) == 1;
    return false;
}

// The configuration `numbers FLAG VALUE` computes from, and the problems it reports.
std::vector<std::string> through_flags(const std::vector<std::string>& args, engine::Config& c) {
    CLI::App app;
    render::ConfigFlags flags;
    render::register_config_flags(&app, flags);
    std::vector<const char*> argv{"numbers"};
    for (const std::string& a : args) argv.push_back(a.c_str());
    app.parse(int(argv.size()), argv.data());
    return render::apply_config_flags(flags, c);
}

}  // namespace

TEST_CASE("every setting reaches the loader, set:, limits, the schema and the flags alike",
          "[settings]") {
    const auto schema = nlohmann::json::parse(story::storyboard_schema());
    const auto& props = schema.at("definitions").at("setting").at("properties");
    const auto& set = schema.at("definitions").at("set").at("properties");
    std::set<std::string> flags;
    for (const story::SettingSpec& s : story::settings()) {
        INFO(s.name);
        CHECK(loader_takes(loader_section(s.section), s.name));
        CHECK(props.contains(s.name));
        CHECK(set.contains(s.name));
        CHECK(story::setting_type(s.name) == s.type);
        using T = story::SettingType;
        if (s.type == T::whole) CHECK(story::limits::find_whole_number(s.name));
        if (s.type == T::choice) CHECK(story::limits::find_choice(s.name));
        if (s.type == T::ranged) CHECK(story::limits::find_range(s.name));
        CHECK(s.flag.starts_with("--"));
        CHECK(flags.insert(s.flag).second);
        CHECK_FALSE(s.help.empty());
        // The tests try at least two values; each sets the same configuration through `set:`
        // and through the flag, and the two first differ.
        REQUIRE(s.tried.size() >= 2);
        std::vector<engine::Config> tried;
        for (const std::string& value : s.tried) {
            INFO(value);
            engine::Config by_set = story::default_config(), by_flag = story::default_config();
            CHECK(story::apply_setting(by_set, s.name, value) == std::nullopt);
            CHECK(through_flags({s.flag, value}, by_flag).empty());
            CHECK(by_flag == by_set);
            tried.push_back(by_set);
        }
        CHECK_FALSE(tried[0] == tried[1]);
    }
}

TEST_CASE("every flag of numbers and plan is a setting's, the model's shape or the batch's",
          "[settings]") {
    CLI::App app;
    render::ConfigFlags flags;
    render::register_config_flags(&app, flags);
    std::set<std::string> of_settings;
    for (const story::SettingSpec& s : story::settings()) of_settings.insert(s.flag);
    int others = 0;
    for (const CLI::Option* o : app.get_options()) {
        const std::string name = o->get_name(false, true);  // --seq
        if (o == app.get_help_ptr()) continue;
        INFO(name);
        if (!of_settings.count(name)) ++others;
    }
    // --params, --global-batch and the twelve shape flags of a custom model (--arch among them).
    CHECK(others == 14);
    CHECK(flags.options.size() == of_settings.size() + others);
}

TEST_CASE("a setting the command decides has no flag there", "[settings]") {
    CLI::App app;
    render::ConfigFlags flags;
    render::register_config_flags(&app, flags, {"tp", "pp"});
    CHECK(flags.options.count("--tp") == 0);
    CHECK(flags.options.count("--pp") == 0);
    CHECK(flags.options.count("--cp-split") == 1);
}
