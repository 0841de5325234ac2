// A problem validate() finds in a configuration, as a message template and its named arguments:
// english() writes the text `shardreel numbers` prints; the calculator page translates the
// template through the message catalogue and writes the numbers in its own digits. The engine
// translates nothing: it only marks the templates (N_) for scripts/catalogue.sh to extract.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace engine {

// Marks a template for extraction (xgettext's keyword N_); the text itself is unchanged.
constexpr const char* N_(const char* msgid) { return msgid; }

// Every message validate() can write, one template each (problem_formats() lists them).
enum class Msg {
    at_least_one,
    not_divisible,
    zero_stage,
    tp_pp_gpus,
    tp_pp_cp_gpus,
    cp_sequence,
    params_positive,
    top_k_range,
    moe_shape_only,
    dense_layers_all,
    pp_over_layers,
    interleaved_chunks,
    interleaved_layers,
    interleaved_micro_batches,
    dualpipe_pp,
    dualpipe_micro_batches,
    ep_no_experts,
    ep_no_experts_named,
    ep_experts,
    ep_dp,
    shard_group_negative,
    shard_group_zero,
    shard_group_ep,
    shard_group_replicas,
    offload_zero,
    offload_params_zero,
    offload_optimizer,
    offload_pcie,
    mfu_range,
    step_time_negative,
    capacity_factor_positive,
    nvlink_positive,
    network_positive,
    memory_positive,
    throughput_positive,
    stage_split_empty,
    global_batch_split,
    count
};

struct Problem;

// A template's argument: {name} in it, its English text and whether it is a number (the page
// writes numbers in its digits; the rest are names the reader types: settings, keywords, presets).
// An argument that is words itself (plan's nearest layout: "dp 8 x tp 1 x pp 2, ZeRO-3, full
// recompute") has its own template and arguments in `parts` (one), whose English is its text:
// the page translates and fills it as it does the whole.
struct ProblemArg {
    std::string name, text;
    bool number = false;
    std::vector<Problem> parts{};
    bool operator==(const ProblemArg&) const = default;
};

struct Problem {
    const char* format = nullptr;  // its template in English (problem_formats(), ...)
    std::vector<ProblemArg> args;
    bool operator==(const Problem&) const = default;
};

// Every template, in Msg's order.
std::span<const char* const> problem_formats();
const char* problem_format(Msg m);

// The template with each {name} replaced by its argument's text.
std::string english(const Problem& p);
// A check's optional problem as its English line (nothing when there is no problem).
std::optional<std::string> english(const std::optional<Problem>& p);

struct Config;

// What makes the config unusable (config.cpp), empty when it is usable; validate() (config.hpp)
// gives english() of each.
std::vector<Problem> problems_of(const Config& c);

// Why `sequences` does not split into c's micro-batches (set_global_batch, config.hpp, gives its
// english()), or nothing when it does: c's micro_batches are then set.
std::optional<Problem> global_batch_problem(Config& c, long long sequences);

}  // namespace engine
