// One GPU's memory through a training step; see step_timeline.hpp.
#include "story/vocab/step_timeline.hpp"

#include <algorithm>
#include <cmath>

namespace story {

double step_units(int micro_batches) {
    return micro_batches * (1 + kBackwardUnits) + kOptimizerUnits;
}

double pass_start(int k, StepPass pass) {
    const double start = k * (1 + kBackwardUnits);
    return pass == StepPass::backward ? start + 1 : start;
}

StepMoment step_moment(double u, int micro_batches) {
    const double per = 1 + kBackwardUnits;
    if (u >= micro_batches * per)
        return {micro_batches, StepPass::optimizer,
                std::clamp((u - micro_batches * per) / kOptimizerUnits, 0.0, 1.0)};
    const int k = std::max(0, static_cast<int>(std::floor(u / per)));
    const double in = u - k * per;
    if (in < 1) return {k, StepPass::forward, in};
    return {k, StepPass::backward, (in - 1) / kBackwardUnits};
}

double StepBands::total() const {
    return context + weights + gradients + optimizer + buffers + reserve + activations + logits;
}

StepBands step_bands(const engine::StagePeak& stage, int micro_batches, double u) {
    const engine::PeakTerms& t = stage.terms;
    StepBands b;
    b.context = t.context.value;
    b.weights = t.weights.value;
    b.gradients = (t.gradients + t.grad_accum).value;
    b.optimizer = t.optimizer.value;
    b.buffers = (t.dp_buckets + t.param_gather + t.tp_gather).value;
    b.reserve = t.reserve.value;
    const int layers = std::max(1, stage.layers), slots = layers + 1;
    const StepMoment at = step_moment(u, micro_batches);
    // Slots whose work has ended: layer i's (or the output layer's) allocation or freeing.
    const int done = std::min(slots, static_cast<int>(std::floor(at.progress * slots + 1e-9)));
    if (at.pass == StepPass::forward) {
        b.activations = t.activations.value * std::min(done, layers) / layers;
        b.logits = done == slots ? t.logits.value : 0;
    } else if (at.pass == StepPass::backward) {
        b.logits = done == 0 ? t.logits.value : 0;
        b.activations = t.activations.value * (layers - std::max(0, done - 1)) / layers;
    }
    // The first micro-batch's backward fills the buffer, the others add to it; the optimizer
    // step reads it and zeroes it at its end.
    if (at.pass == StepPass::optimizer)
        b.gradients_filled = at.progress < 1 - 1e-9 ? 1 : 0;
    else if (at.micro_batch > 0)
        b.gradients_filled = 1;
    else if (at.pass == StepPass::backward)
        b.gradients_filled = at.progress;
    return b;
}

std::vector<double> step_breaks(const engine::StagePeak& stage, int micro_batches) {
    const int slots = std::max(1, stage.layers) + 1;
    std::vector<double> out;
    for (int k = 0; k < micro_batches; ++k)
        for (StepPass pass : {StepPass::forward, StepPass::backward}) {
            const double start = pass_start(k, pass),
                         length = pass == StepPass::forward ? 1 : kBackwardUnits;
            for (int i = 0; i < slots; ++i) out.push_back(start + length * i / slots);
        }
    out.push_back(micro_batches * (1 + kBackwardUnits));
    out.push_back(step_units(micro_batches));
    return out;
}

}  // namespace story
