// Work and time of one training step: model FLOPs (what the model needs), hardware FLOPs (what
// the GPUs run, recomputation included), the step time they take at an assumed efficiency plus
// the communication not hidden behind them, and MFU/HFU (Chowdhery et al. 2022, PaLM, appendix
// B; Korthikanti et al. 2022, section 6).
#pragma once
#include <string_view>

#include "engine/comm.hpp"
#include "engine/config.hpp"

namespace engine {

struct FlopsReport {
    double per_token = 0;          // model FLOPs of one token, forward and backward
    double model_per_step = 0;     // per_token x the step's tokens, all GPUs together
    double hardware_per_step = 0;  // model_per_step plus recomputation as HFU counts it
    double executed_per_step = 0;  // model_per_step plus the forward work run again: the time
    double tokens_per_step = 0;    // dp x micro_batch x micro_batches x seq_len
    bool operator==(const FlopsReport&) const = default;
};

// Per token, training (forward 1, backward 2): 6 FLOPs per weight (with experts, of the top_k a
// token goes through) of the layers' matrices and of
// the output head, plus 12 l s h for attention's scores and their use (PaLM's 6N + 12LHQT, which
// for GPT's 12h^2 layers is Narayanan et al. 2021's 72lh^2 + 12lsh + 6hV, eq. 3 without its
// recomputation). Recomputation runs the layers' forward again, never the head's
// (executed_per_step): full, 2 FLOPs per layer weight and 4 l s h; selective, the attention core's
// forward, 4 l s h (its two s x s matmuls). hardware_per_step, the numerator of HFU, counts
// selective's attention core as Korthikanti et al. (section 6, Table 5) and Megatron-LM's README
// do, 12 l s h (72 B s l h^2 (1 + s/3h + V/12hl)): its forward and backward again, three times what
// runs, so that HFU compares with their tables. Full recompute counts the same in both.
FlopsReport step_flops(const Config& c);

// The GPU's peak dense FLOPs per second for the training precision: bf16 for bf16-mixed, fp8 for
// fp8-mixed (bf16 where the GPU has no fp8 tensor cores), tf32 for fp32.
double peak_flops(const Config& c);

// Where a step's time comes from: the step model (step_model.hpp, set on nanotron's H100 runs),
// an MFU the configuration gives (training.mfu), or a measured step time (training.step_time),
// which wins over both.
enum class StepSource { predicted, given_mfu, measured };
std::string_view to_string(StepSource s);  // "predicted", "mfu", "measured"

struct StepReport {
    double seconds = 0;          // estimated, or the measured step_time given
    double compute_seconds = 0;  // executed FLOPs at mfu x peak, stretched by the bubble
    double exposed_comm_seconds = 0;
    double mfu = 0, hfu = 0;  // model and hardware FLOPs over seconds x gpus x peak
    double tokens_per_second_per_gpu = 0;
    StepSource source = StepSource::predicted;
    bool measured() const { return source == StepSource::measured; }
    bool operator==(const StepReport&) const = default;
};

// Estimated: compute = executed FLOPs per GPU / (mfu x peak), divided by (1 - bubble) for the
// pipeline's idle slots; then the communication that overlap does not hide: all of it (none),
// everything but the data-parallel traffic the compute covers (dp), or whatever the compute does
// not cover (all). Measured (step_time > 0): that time, and the utilisations it implies.
// Offload's PCIe time (offload.hpp) counts with the tensor, pipeline, expert and context traffic:
// exposed under none and dp, hidden as far as compute covers it under all.
StepReport step_time(const Config& c, const FlopsReport& flops, const CommPerStep& comm,
                     double bubble_fraction, Seconds pcie = Seconds(0));

// A whole training run of `tokens` tokens at this step: ceil(tokens / tokens per step) steps, their
// time in days and the GPU-hours they take (steps x step seconds x GPUs / 3,600).
struct RunTotals {
    double tokens = 0, steps = 0, days = 0, gpu_hours = 0;
    bool operator==(const RunTotals&) const = default;
};
RunTotals run_totals(const FlopsReport& flops, const StepReport& step, int gpus, double tokens);

}  // namespace engine
