// Memory per GPU: model states under DP / ZeRO-1/2/3 / TP / PP, and activations.
#pragma once
#include "engine/config.hpp"
#include "engine/peak.hpp"
#include "engine/stages.hpp"
#include "engine/units.hpp"

namespace engine {

// Korthikanti et al. 2022, per layer, one micro-batch, on one GPU after TP (and SP when on).
// Context parallelism (cp ranks per sequence) divides it by cp.
Bytes activation_bytes_per_layer(const ModelSpec& m, const Training& t, int tp, int cp = 1);
// Micro-batches whose activations the first stage holds at once: m (GPipe), min(m, p) (1F1B),
// min(m, p + (p-1)/v) with v chunks per GPU (interleaved 1F1B; fractional: a chunk is 1/v),
// min(m, p) (ZB-H1), min(m, 2p-1) (ZB-H2), min(m, p+1) over both stage copies (DualPipe).
double in_flight_micro_batches(const Training& t, int pp);
int layers_per_stage(const ModelSpec& m, int pp);  // ceil(layers / pp): the most loaded stage
// The activations a GPU keeps while it holds `micro_batches` of them: each its stage's layers
// (the most loaded stage's count) at activation_bytes_per_layer. per_gpu_memory's activations are
// this at in_flight_micro_batches; a schedule's max_in_flight gives any stage's peak.
Bytes activations_held(const Config& c, double micro_batches);
// Parameters on the most loaded GPU: stage 0 (embedding + its layers) when pp > 1, split t ways;
// the routed experts among them also split ep ways.
struct GpuParams {
    double dense = 0;    // replicated across the data-parallel group
    double experts = 0;  // routed experts when ep > 1 splits them (else counted in dense)
    double total() const { return dense + experts; }
    bool operator==(const GpuParams&) const = default;
};
GpuParams params_on_gpu(const ModelSpec& m, const Parallel& p);
// The same for any stage: its layers, the embedding on the first, the output layer on the one
// that holds it (a tied model's last stage keeps a copy of the embedding's matrix).
GpuParams params_on_stage(const ModelSpec& m, const Parallel& p, const StageShape& s);
// bytes_per_param of each parameter, sharded from ZeRO stage `from` on: the dense ones over the
// ZeRO group, the routed experts over their expert-data-parallel group.
Bytes sharded_from(const GpuParams& params, const Parallel& p, int from, double bytes_per_param);
double params_per_gpu(const ModelSpec& m, const Parallel& p);  // params_on_gpu(m, p).total()
int stage_copies(const Training& t);     // stages each GPU holds: 2 under DualPipe, else 1
GpuParams params_held(const Config& c);  // params_on_gpu x stage_copies

// What offload keeps in host memory for one GPU, part by part.
struct HostBytes {
    Bytes weights, gradients, optimizer;
    Bytes total() const { return weights + gradients + optimizer; }
    bool operator==(const HostBytes&) const = default;
};

// "On paper" (weights + gradients + optimizer + activations = total, the first-order figure the
// films teach and the published tables check) and the expected peak beside it; fits compares the
// expected peak with the GPU's memory.
struct PerGpu {
    Bytes weights, gradients, optimizer, activations, total, capacity;
    ExpectedPeak expected;
    bool fits = false;
    Bytes host;           // what offload keeps in host memory for this GPU (offloaded.total())
    HostBytes offloaded;  // the same, by part
    Bytes host_capacity;  // its share of the host's memory (fits: host <= host_capacity too)
    bool operator==(const PerGpu&) const = default;
};
PerGpu per_gpu_memory(const Config& c);

Bytes model_states_bytes(const ModelSpec& m, const Training& t);
int gpus_to_hold(Bytes states, Bytes gpu_memory);  // ceil

}  // namespace engine
