// One GPU's memory through a training step, as a memory profiler's timeline draws it, from the
// expected peak's terms (engine/peak.hpp) of a stage without pipeline parallelism: the model
// states, the communication buffers, the allocator's reserve and the CUDA context stay allocated
// the whole step (frameworks keep one gradient buffer, which the backward fills and the optimizer
// step empties); each micro-batch's forward allocates its layers' activations one layer at a
// time, then the output layer's logits and the loss; its backward frees the logits, then each
// layer's activations in reverse. The top of every forward is engine::expected_peak's total.
#pragma once
#include <vector>

#include "engine/peak.hpp"

namespace story {

// Step time in units of one forward pass: per micro-batch a forward (1) and a backward (2), then
// the optimizer step.
inline constexpr double kBackwardUnits = 2, kOptimizerUnits = 0.6;
double step_units(int micro_batches);

// Where the step is at `u` units: micro-batch (0-based), which pass and how far through it.
enum class StepPass { forward, backward, optimizer };
struct StepMoment {
    int micro_batch = 0;
    StepPass pass = StepPass::forward;
    double progress = 0;  // 0 to 1 through the pass
};
StepMoment step_moment(double u, int micro_batches);
// The units at which micro-batch k's pass begins (k = micro_batches: the optimizer step).
double pass_start(int k, StepPass pass);

// The bytes allocated at a moment, bottom to top as the chart stacks them.
struct StepBands {
    double context = 0, weights = 0, gradients = 0, optimizer = 0, buffers = 0, reserve = 0,
           activations = 0, logits = 0;
    double gradients_filled = 0;  // share of the gradient buffer holding this step's sums
    double total() const;
};
// `layers` slots a pass (one per layer) plus the output layer and loss, each allocating or
// freeing at its end.
StepBands step_bands(const engine::StagePeak& stage, int micro_batches, double u);

// The moments the allocation changes, in order over the whole step (0 and step_units included):
// the chart's points.
std::vector<double> step_breaks(const engine::StagePeak& stage, int micro_batches);

}  // namespace story
