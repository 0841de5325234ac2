// The planner: every layout of one model on one cluster that the cost model accepts, those that
// do not fit dropped (counted by reason), the rest ranked by estimated step time.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/report.hpp"

namespace engine {

struct PlanOptions {
    int top = 5;
    int global_batch = 2048;  // sequences per step (Llama 3 405B's, Dubey et al. 2024, Table 4)
};

struct PlanEntry {
    Config config;
    Report report;
};

struct PlanResult {
    std::vector<PlanEntry> best;  // at most top, fastest first (ties: less memory per GPU)
    long long considered = 0;     // layouts the search evaluated
    long long feasible = 0;       // of those, the ones that fit
    std::map<std::string, long long> rejected;  // why a layout was dropped -> how many
    // Nothing fits: the layout needing the least memory per GPU, and the smallest power-of-two
    // multiple of the GPUs (up to 64x) on which some layout fits (0: none).
    std::optional<PlanEntry> leanest;
    int gpus_that_fit = 0;
};

// The layouts are base's cluster, model and training with every combination of tp (dividing a
// node and the heads), pp (at most the layers), dp (the rest), ZeRO stage, recompute, schedule
// (1F1B, ZB-H1, ZB-H2, DualPipe, interleaved with each chunk count the layers allow; those the
// layout cannot run, such as DualPipe on an odd pp, are not layouts) and micro-batch size (1, 2, 4,
// 8 sequences; micro-batches = global batch / (dp x micro-batch size)). base.layout.gpus is the
// cluster's size. Dominated choices are not enumerated: GPipe (1F1B's bubble with more
// activations held), tensor parallelism across nodes, and sequence parallelism off with tp > 1.
PlanResult plan(const Config& base, const PlanOptions& options);

}  // namespace engine
