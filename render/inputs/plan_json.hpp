// `plan`'s answer as text, shared by `shardreel plan` and the browser's calculator module
// (calc/): what it chooses itself, its request read from the settings' text, the ranked layouts
// as `plan --format json` prints them and the message when nothing fits. No ICU, no I/O.
#pragma once
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "engine/plan.hpp"
#include "engine/problem.hpp"
#include "render/inputs/config_values.hpp"

namespace render {

// The setting keys the planner decides (tp, pp, ..., recompute): no flag of plan's.
const std::set<std::string>& plan_chosen();

struct PlanRequest {
    engine::Config base;
    engine::PlanOptions options;
    // every problem, each naming its flag (story::problem_line writes its line: "--top: ...")
    std::vector<engine::Problem> problems;
};
// The base configuration (the default with the values applied, values.chosen holding
// plan_chosen()), the global batch (2,048 sequences unless given) and how many layouts to keep.
PlanRequest plan_request(const ConfigValues& values, int top);

// The layouts, best first, each with its choices and then every key of `numbers --format json`.
nlohmann::ordered_json plan_json(const engine::PlanResult& r);

// Nothing fits (r.best empty): what plan prints after "shardreel: error: " (its english()),
// naming the layout nearest to fitting, a GPU preset that would hold it and a GPU count on which
// some layout fits; one template for each set of those parts (story/storyboard/problems.hpp).
engine::Problem plan_shortfall(const engine::Config& base, const engine::PlanResult& r);

// "dp 8 x tp 1 x pp 2", with " x cp C" and ", ep E" when used.
std::string plan_layout_name(const engine::Config& c);
// "3 in groups of 8, offload optimizer": the ZeRO stage with hybrid sharding and offload.
std::string plan_zero_name(const engine::Parallel& p);

}  // namespace render
