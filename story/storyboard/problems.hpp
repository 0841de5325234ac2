// The refusals of a flag's or a setting's value as templates with named arguments, as the
// engine's own refusals are (engine/problem.hpp: engine::Problem, english()): a count that is no
// number, a bound, a unit, an unknown keyword (units, limits, settings, diagnostics), and the other
// flags of `numbers` and `plan` (render/inputs: the custom shape, --global-batch, --tokens). The
// English text (english(), what the commands print and the loader reports) is unchanged; the
// calculator page translates the template through the message catalogue (the templates are
// marked N_() in problems.cpp, one list) and writes the numbers in its own digits.
#pragma once
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/problem.hpp"

namespace story {

// Every template of a flag's or a setting's refusal, one each (refusal_formats() lists them).
enum class Refusal {
    not_a_number,
    not_whole,
    out_of_bounds,
    out_of_seconds,
    out_of_decibels,
    unit_size,
    unit_bandwidth,
    unit_time,
    unit_count,
    unit_level,
    unknown_hint,
    unknown_expected,
    unknown_expected_one,
    unknown_model,
    not_a_flag,
    bandwidth_positive,
    expected_seconds,
    params_text,
    params_shape,
    cluster_too_big,
    custom_shape,
    both_given,
    global_batch_and_micro_batches,
    global_batch_text,
    global_batch_tokens,
    tokens_text,
    top_text,
    // plan's shortfall, one sentence for each set of its optional parts (plan_json.cpp): the
    // nearest layout (and its host memory, and a bigger GPU that holds it), a GPU count that fits.
    shortfall,
    shortfall_gpus,
    shortfall_nearest,
    shortfall_nearest_gpus,
    shortfall_nearest_bigger,
    shortfall_nearest_bigger_gpus,
    shortfall_nearest_host,
    shortfall_nearest_host_gpus,
    shortfall_nearest_host_bigger,
    shortfall_nearest_host_bigger_gpus,
    // the shortfall's {layout}, the nearest layout's name (plan_json.cpp), in parts: its degrees
    // (code no language translates), its ZeRO stage (in groups of its shard group, with its
    // offload) and its recompute: "dp 8 x tp 1 x pp 2, ZeRO-3 in groups of 8, full recompute".
    layout_name,
    zero_groups,
    zero_offload,
    count
};

// Every template, in Refusal's order.
std::span<const char* const> refusal_formats();

// A refusal: its template with these arguments.
engine::Problem refusal(Refusal r, std::vector<engine::ProblemArg> args);
// An argument the reader types or reads as a name (a setting, a keyword, a flag, a value as
// typed), and one that is a number (the page writes it in its digits).
engine::ProblemArg name_arg(std::string name, std::string text);
engine::ProblemArg number_arg(std::string name, std::string text);
// An argument that is a template of its own (ProblemArg::parts): its text is english(p).
engine::ProblemArg part_arg(std::string name, engine::Problem p);

// p about the flag's value: with the argument "flag" (the page shows it beside that control).
engine::Problem about_flag(std::string flag, engine::Problem p);
// The line a command prints for p: english(p), after "FLAG: " when p names a flag (about_flag)
// its template does not ("--tp: 'tp' must be between 1 and 65536, got 0").
std::string problem_line(const engine::Problem& p);

}  // namespace story
