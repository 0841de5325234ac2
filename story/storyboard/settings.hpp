// Flat parameter names (`set: {precision: fp8}`, `{gpus: 16}`, `{tp: 4, pp: 2}`) and the one
// function that parses and applies them to an engine::Config.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/config.hpp"
#include "engine/problem.hpp"

namespace story {

// The shape of a flat setting's value: a model, a GPU preset, a keyword (limits::kChoices), a
// whole number (limits::kWholeNumbers), a flag, a bandwidth or a real number in its range
// (limits::kRanges). The JSON Schema is built from it.
enum class SettingType { model, gpu, choice, whole, flag, bandwidth, ranged };

// Where a storyboard gives a setting: `model:` itself, or a key of one of the sections.
enum class SettingSection { model, training, cluster, parallel };

// One flat setting, described once: the storyboard's sections and `set:`, the limits its value
// is checked against (found in limits.hpp under its name), the JSON Schema, the flags of
// `numbers` and `plan`, and the tests all read this.
struct SettingSpec {
    std::string name;
    SettingSection section;
    SettingType type;
    std::string flag;                // in `numbers` and `plan`: --seq for seq_len
    std::string help;                // the flag's help (a keyword's choices are added to it)
    std::vector<std::string> tried;  // values the tests set it to, in order
    // Reads value into c; an error message (no position) when it does not parse or is out of
    // range (c may be half-changed then: apply_setting applies to a copy).
    std::optional<engine::Problem> (*apply)(engine::Config& c, const std::string& key,
                                            const std::string& value);
};

// Every setting, in the order they are applied: a gpu before the links beside it, the cluster's
// size before gpus.
const std::vector<SettingSpec>& settings();
const SettingSpec* find_setting(const std::string& name);  // nullptr: no such name
// The keys of one section, in that order.
std::vector<std::string> section_keys(SettingSection section);
// The section's key in a storyboard: "model" (itself a key), "training", "cluster", "parallel".
const char* section_name(SettingSection section);
// Their names, in that order.
const std::vector<std::string>& setting_names();
std::optional<SettingType> setting_type(const std::string& name);  // nullopt: no such name

// Applies key=value to c. Returns an error message (no position) when the key is unknown or the
// value does not parse or is out of range; c is unchanged then.
std::optional<std::string> apply_setting(engine::Config& c, const std::string& key,
                                         const std::string& value);
// The same, the refusal as a template and its arguments (story/storyboard/problems.hpp).
std::optional<engine::Problem> setting_problem(engine::Config& c, const std::string& key,
                                               const std::string& value);

// true or false for a flag's text: any YAML 1.1 boolean (limits::kTrueWords, kFalseWords).
std::optional<bool> parse_flag(std::string_view text);

// "model size must be between 1M and 1000T parameters, got 'TEXT'" when count (read from text)
// is outside limits::kMinParams..kMaxParams; "..., got COUNT from its shape" for a count the
// model's shape gives.
std::optional<engine::Problem> params_problem(double count, const std::string& text);
std::optional<engine::Problem> shape_params_problem(double count, const std::string& count_text);

// What a storyboard starts from before `defaults:`: llama-2-7b on one node of eight
// h100-sxm-80gb, and the engine's training defaults.
engine::Config default_config();

}  // namespace story
