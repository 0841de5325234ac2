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
    int sample = 0;           // candidates kept per fate for a picture of the search (PlanSample)
};

struct PlanEntry {
    Config config;
    Report report;
    long long order = 0;  // layouts the search had considered before it
};

// What became of a candidate: its (tp, pp, cp, micro-batch size) split leaves the global batch
// undivided (no layout formed: config holds the split, no report), it does not fit in memory,
// it fits but is slower than the ranked few, or it is one of them.
enum class PlanFate { no_divide, no_fit, slower, ranked };

struct PlanSample {
    PlanFate fate = PlanFate::no_fit;
    PlanEntry entry;  // entry.report is default-constructed for no_divide
};

struct PlanResult {
    std::vector<PlanEntry> best;  // at most top, fastest first (ties: less memory per GPU)
    long long considered = 0;     // layouts the search evaluated
    long long feasible = 0;       // of those, the ones that fit
    std::map<std::string, long long> rejected;  // why a layout was dropped -> how many
    // (tp, pp, cp, micro-batch size) splits skipped as the global batch does not divide over
    // dp x micro-batch size: no layout of theirs is considered.
    long long batch_splits_dropped = 0;
    // Nothing fits: the layout nearest to fitting (the least memory over capacity, on the GPU
    // or, with offload, on the host), and the smallest power-of-two multiple of the GPUs (up to
    // 64x) on which some layout fits (0: none).
    std::optional<PlanEntry> leanest;
    int gpus_that_fit = 0;
    // At most options.sample candidates of each fate, spread evenly over the search order (every
    // k-th one met, k doubling as they overflow), sorted by that order; the ranked are best's.
    std::vector<PlanSample> sample;
};

// The layouts are base's cluster, model and training with every combination of tp (dividing a
// node and the heads), pp (at most the layers), cp (powers of two up to 16 that leave each rank
// at least 4,096 tokens), dp (the rest), ep (dividing dp and the experts, for a mixture of
// experts), ZeRO stage (with ZeRO-3, over all replicas or hybrid inside a node's), offload (only
// where nothing else fits: it adds PCIe time), recompute, schedule
// (1F1B, ZB-H1, ZB-H2, DualPipe, interleaved with each chunk count the layers allow; those the
// layout cannot run, such as DualPipe on an odd pp, are not layouts) and micro-batch size (1, 2, 4,
// 8 sequences; micro-batches = global batch / (dp x micro-batch size)). base.layout.gpus is the
// cluster's size. Dominated choices are not enumerated: GPipe (1F1B's bubble with more
// activations held), tensor parallelism across nodes, and sequence parallelism off with tp > 1.
PlanResult plan(const Config& base, const PlanOptions& options);

}  // namespace engine
