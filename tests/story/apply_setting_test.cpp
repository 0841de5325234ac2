// The flat settings a beat's `set:` and the command line write: each name parsed onto the config,
// bad values refused with the config unchanged, and every name listed in the table's order.
#include <algorithm>

#include "engine/presets.hpp"
#include "story/storyboard/diagnostics.hpp"
#include "story/storyboard/problems.hpp"
#include "story/storyboard/settings.hpp"
#include "tests/catch.hpp"

TEST_CASE("apply_setting parses each flat name onto the config") {
    engine::Config c = story::default_config();
    CHECK(c.layout == engine::Parallel{8, 1, 1, 0});
    CHECK_FALSE(story::apply_setting(c, "precision", "fp8"));
    CHECK(c.training.precision == engine::Precision::fp8_mixed);
    CHECK_FALSE(story::apply_setting(c, "flash_attention", "off"));
    CHECK_FALSE(c.training.flash_attention);
    CHECK_FALSE(story::apply_setting(c, "schedule", "interleaved"));
    CHECK(c.training.schedule == engine::Schedule::interleaved);
    CHECK_FALSE(story::apply_setting(c, "nvlink", "450GB/s"));
    CHECK(c.cluster.nvlink.value == 450e9);
    // A new gpu brings its own links.
    CHECK_FALSE(story::apply_setting(c, "gpu", "a100-sxm-80gb"));
    CHECK(c.cluster.nvlink.value == 600e9);
    CHECK(c.cluster.network.value == 25e9);
    CHECK_FALSE(story::apply_setting(c, "nodes", "4"));
    CHECK(c.layout.gpus == 32);
    CHECK_FALSE(story::apply_setting(c, "gpus", "16"));
    CHECK_FALSE(story::apply_setting(c, "nodes", "8"));
    CHECK(c.layout.gpus == 16);  // set explicitly: no longer follows the cluster
    CHECK_FALSE(story::apply_setting(c, "model", "175B"));
    CHECK(c.model.params == 175e9);
}

TEST_CASE("apply_setting rejects bad values and leaves the config unchanged") {
    const engine::Config before = story::default_config();
    engine::Config c = before;
    using Opt = std::optional<std::string>;
    CHECK(story::apply_setting(c, "microbatches", "8") ==
          Opt("unknown parameter 'microbatches' (did you mean 'micro_batches'?)"));
    CHECK(story::apply_setting(c, "tp", "four") == Opt("expected a number for 'tp', got 'four'"));
    CHECK(story::apply_setting(c, "micro_batches", "5000") ==
          Opt("'micro_batches' must be between 1 and 4096, got 5000"));
    CHECK(story::apply_setting(c, "recompute", "some") ==
          Opt("unknown recompute 'some' (expected none, selective or full)"));
    CHECK(story::apply_setting(c, "gpu", "h200-sxm-80gb") ==
          Opt("unknown gpu 'h200-sxm-80gb' (did you mean 'h100-sxm-80gb'?)"));
    CHECK(story::apply_setting(c, "network", "50GB") ==
          Opt("cannot parse '50GB' as a bandwidth (expected e.g. 900GB/s or 400Gb/s)"));
    CHECK(story::apply_setting(c, "network", "0GB/s") ==
          Opt("bandwidth must be positive, got '0GB/s'"));
    CHECK(story::apply_setting(c, "nodes", "65536") ==
          Opt("gpus_per_node x nodes = 524288 exceeds 65536 GPUs"));
    CHECK(story::apply_setting(c, "model", "5") ==
          Opt("model size must be between 1M and 1000T parameters, got '5'"));
    CHECK(c == before);
}

TEST_CASE("setting_names lists every flat name, in the table's order") {
    std::vector<std::string> names;
    for (const story::SettingSpec& s : story::settings()) names.push_back(s.name);
    CHECK(story::setting_names() == names);
    CHECK(names.size() == 37);
    // The order the sections and flags apply them in: a gpu before its links, the cluster's
    // size before gpus.
    const auto at = [&](const char* n) { return std::ranges::find(names, n) - names.begin(); };
    CHECK(at("gpu") < at("nvlink"));
    CHECK(at("gpu") < at("network"));
    CHECK(at("nodes") < at("gpus"));
    CHECK(at("gpus_per_node") < at("gpus"));
}

TEST_CASE("a setting's refusal is a template with named arguments and its English is the message") {
    engine::Config c = story::default_config();
    const auto format = [](story::Refusal r) { return story::refusal_formats()[int(r)]; };
    const auto tp = story::setting_problem(c, "tp", "0");
    REQUIRE(tp);
    CHECK(std::string_view(tp->format) == format(story::Refusal::out_of_bounds));
    CHECK(tp->args == std::vector<engine::ProblemArg>{{"name", "tp", false},
                                                      {"lo", "1", true},
                                                      {"hi", "65536", true},
                                                      {"value", "0", true}});
    CHECK(engine::english(*tp) == "'tp' must be between 1 and 65536, got 0");
    CHECK(story::apply_setting(c, "tp", "0") == engine::english(*tp));
    // Text the reader typed is a name, not a number (the page keeps it as typed).
    const auto four = story::setting_problem(c, "tp", "four");
    REQUIRE(four);
    CHECK(std::string_view(four->format) == format(story::Refusal::not_a_number));
    CHECK_FALSE(four->args.at(1).number);
    // A keyword's list: the template says "or" before the last.
    const auto some = story::setting_problem(c, "recompute", "sometimes");
    REQUIRE(some);
    CHECK(std::string_view(some->format) == format(story::Refusal::unknown_expected));
    CHECK(engine::english(*some) ==
          "unknown recompute 'sometimes' (expected none, selective or full)");
    // A model neither a preset nor a count: the presets, then the template's own words.
    const auto model = story::setting_problem(c, "model", "gpt-q");
    REQUIRE(model);
    CHECK(std::string_view(model->format) == format(story::Refusal::unknown_model));
    std::vector<std::string> names;
    for (const engine::ModelSpec& m : engine::model_presets()) names.push_back(m.name);
    names.push_back("a parameter count such as 7B");
    CHECK(engine::english(*model) ==
          "unknown model 'gpt-q' (expected " + story::or_list(names) + ")");
    // A range in seconds writes its unit after each number.
    const auto step = story::setting_problem(c, "step_time", "100000");
    REQUIRE(step);
    CHECK(engine::english(*step) == "'step_time' must be between 0.001s and 86400s, got 100000s");
    CHECK(c == story::default_config());
}
