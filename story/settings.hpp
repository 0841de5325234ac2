// Flat parameter names (`set: {precision: fp8}`, `{gpus: 16}`, `{tp: 4, pp: 2}`) and the one
// function that parses and applies them to an engine::Config.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "engine/config.hpp"

namespace story {

// Every flat name: model, gpu, precision, grad_dtype, seq_len, micro_batch, micro_batches,
// recompute, flash_attention, sequence_parallel, schedule, chunks, gpus, tp, pp, zero,
// gpus_per_node, nodes, nvlink, network.
const std::vector<std::string>& setting_names();

// Applies key=value to c. Returns an error message (no position) when the key is unknown or the
// value does not parse or is out of range; c is unchanged then.
std::optional<std::string> apply_setting(engine::Config& c, const std::string& key,
                                         const std::string& value);

// What a storyboard starts from before `defaults:`: llama-2-7b on one node of eight
// h100-sxm-80gb, and the engine's training defaults.
engine::Config default_config();

}  // namespace story
