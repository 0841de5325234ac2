// Step FLOPs and time; see flops.hpp.
#include "engine/flops.hpp"

#include <algorithm>
#include <cmath>

#include "engine/names.hpp"
#include "engine/presets.hpp"
#include "engine/step_model.hpp"

namespace engine {

FlopsReport step_flops(const Config& c) {
    const ModelSpec& m = c.model;
    const Training& t = c.training;
    // What a token multiplies: with experts, top_k of them (norms and biases included).
    const double layer_weights = parameter_split(m).per_layer_active;
    const double head = double(m.vocab) * m.hidden;                    // computed even when tied
    const double attention = double(m.layers) * t.seq_len * m.hidden;  // l s h
    FlopsReport f;
    f.per_token = 6 * (m.layers * layer_weights + head) + 12 * attention;
    double executed = 0, counted = 0;  // what runs again, and what HFU counts (flops.hpp)
    if (t.recompute == Recompute::full)
        executed = counted = 2 * m.layers * layer_weights + 4 * attention;
    if (t.recompute == Recompute::selective) {
        executed = 4 * attention;
        counted = 12 * attention;
    }
    f.tokens_per_step = double(c.layout.dp()) * t.micro_batch * t.micro_batches * double(t.seq_len);
    f.model_per_step = f.per_token * f.tokens_per_step;
    f.hardware_per_step = (f.per_token + counted) * f.tokens_per_step;
    f.executed_per_step = (f.per_token + executed) * f.tokens_per_step;
    return f;
}

double peak_flops(const Config& c) {
    const GpuSpec& g = c.cluster.gpu;
    switch (c.training.precision) {
        case Precision::fp32:
            return (g.tf32_dense_tflops > 0 ? g.tf32_dense_tflops : g.bf16_dense_tflops) * 1e12;
        case Precision::fp8_mixed:
            return (g.fp8_dense_tflops > 0 ? g.fp8_dense_tflops : g.bf16_dense_tflops) * 1e12;
        default:
            return g.bf16_dense_tflops * 1e12;
    }
}

namespace {

// The step's time and what it implies: MFU, HFU and tokens per second per GPU.
StepReport utilisation(const Config& c, const FlopsReport& flops, StepReport s, double seconds) {
    const double gpus = c.layout.gpus, peak = peak_flops(c);
    s.seconds = seconds;
    s.mfu = flops.model_per_step / (s.seconds * gpus * peak);
    s.hfu = flops.hardware_per_step / (s.seconds * gpus * peak);
    s.tokens_per_second_per_gpu = flops.tokens_per_step / (s.seconds * gpus);
    return s;
}

}  // namespace

constexpr NameTable<StepSource, 3> kStepSourceNames = {{StepSource::predicted, "predicted"},
                                                       {StepSource::given_mfu, "mfu"},
                                                       {StepSource::measured, "measured"}};

std::string_view to_string(StepSource s) { return name_of(kStepSourceNames, s); }

RunTotals run_totals(const FlopsReport& flops, const StepReport& step, int gpus, double tokens) {
    RunTotals r;
    r.tokens = tokens;
    r.steps = std::ceil(tokens / std::max(1.0, flops.tokens_per_step));
    const double seconds = r.steps * step.seconds;
    r.days = seconds / 86400;
    r.gpu_hours = seconds * gpus / 3600;
    return r;
}

StepReport step_time(const Config& c, const FlopsReport& flops, const CommPerStep& comm,
                     double bubble_fraction, Seconds pcie) {
    const double gpus = c.layout.gpus, peak = peak_flops(c);
    StepReport s;
    s.source = c.training.step_time > 0 ? StepSource::measured
               : c.training.mfu > 0     ? StepSource::given_mfu
                                        : StepSource::predicted;
    if (c.training.mfu == 0) {
        const PredictedStep p = predicted_step(c);
        s.compute_seconds = p.pipeline.value;
        s.exposed_comm_seconds = (p.dp_exposed + p.other).value;
        return utilisation(c, flops, s, s.measured() ? c.training.step_time : p.seconds.value);
    }
    s.compute_seconds = flops.executed_per_step / gpus / (c.training.mfu * peak) /
                        std::max(1e-9, 1 - bubble_fraction);
    const double dp = comm.dp_time.value, rest = comm.tp_time.value + comm.pp_time.value +
                                                 comm.ep_time.value + comm.cp_time.value +
                                                 pcie.value;
    switch (c.training.overlap) {
        case Overlap::none:
            s.exposed_comm_seconds = dp + rest;
            break;
        case Overlap::dp:
            s.exposed_comm_seconds = rest + std::max(0.0, dp - s.compute_seconds);
            break;
        case Overlap::all:
            s.exposed_comm_seconds = std::max(0.0, dp + rest - s.compute_seconds);
            break;
    }
    return utilisation(
        c, flops, s,
        s.measured() ? c.training.step_time : s.compute_seconds + s.exposed_comm_seconds);
}

}  // namespace engine
