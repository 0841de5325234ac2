// Flat parameter names (`set: {precision: fp8}`, `{gpus: 16}`, `{tp: 4, pp: 2}`) and the one
// function that parses and applies them to an engine::Config.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/config.hpp"

namespace story {

// Every flat name: model, gpu, precision, grad_dtype, optimizer, seq_len, micro_batch,
// micro_batches, recompute, flash_attention, sequence_parallel, schedule, chunks, mfu, overlap,
// step_time, gpus, tp, pp, zero, gpus_per_node, nodes, nvlink, network.
const std::vector<std::string>& setting_names();

// The shape of a flat setting's value: a model, a GPU preset, a keyword (limits::kChoices), a
// whole number (limits::kWholeNumbers), a flag, a bandwidth or a real number in its range
// (limits::kRanges). The JSON Schema is built from it.
enum class SettingType { model, gpu, choice, whole, flag, bandwidth, ranged };
std::optional<SettingType> setting_type(const std::string& name);  // nullopt: no such name

// Applies key=value to c. Returns an error message (no position) when the key is unknown or the
// value does not parse or is out of range; c is unchanged then.
std::optional<std::string> apply_setting(engine::Config& c, const std::string& key,
                                         const std::string& value);

// true or false for a flag's text: any YAML 1.1 boolean (limits::kTrueWords, kFalseWords).
std::optional<bool> parse_flag(std::string_view text);

// "model size must be between 1M and 1000T parameters, got SHOWN" when count is outside
// limits::kMinParams..kMaxParams.
std::optional<std::string> params_error(double count, const std::string& shown);

// What a storyboard starts from before `defaults:`: llama-2-7b on one node of eight
// h100-sxm-80gb, and the engine's training defaults.
engine::Config default_config();

}  // namespace story
