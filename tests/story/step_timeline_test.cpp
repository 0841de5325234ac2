// One GPU's memory through a training step (story/vocab/step_timeline.hpp): what stays allocated,
// activations allocated layer by layer and freed in reverse, the logits at the end of each
// forward, the gradient buffer filled by the first backward and emptied by the optimizer step;
// the top of every forward is the engine's expected peak.
#include "story/vocab/step_timeline.hpp"

#include <algorithm>

#include "engine/memory.hpp"
#include "tests/catch.hpp"
#include "tests/story/chapter_fixture.hpp"

using namespace story;

namespace {

// 7B on 8 H100s, ZeRO-1, four micro-batches of one 4,096-token sequence (the kind's fixture).
engine::StagePeak stage() {
    const engine::Config c = chapter_test::load_spec("kind_step_memory.yaml").config;
    REQUIRE(c.layout.zero == 1);
    REQUIRE(c.training.micro_batches == 4);
    return engine::per_gpu_memory(c).expected.first;
}

}  // namespace

TEST_CASE("a step is three forward passes a micro-batch, then the optimizer step", "[step]") {
    CHECK(step_units(4) == Approx(12.6));
    CHECK(pass_start(1, StepPass::forward) == 3);
    CHECK(pass_start(1, StepPass::backward) == 4);
    const StepMoment m = step_moment(4.5, 4);
    CHECK(m.micro_batch == 1);
    CHECK(m.pass == StepPass::backward);
    CHECK(m.progress == Approx(0.25));
    CHECK(step_moment(12.3, 4).pass == StepPass::optimizer);
}

TEST_CASE("the top of every forward pass is the expected peak", "[step]") {
    const engine::StagePeak s = stage();
    REQUIRE(s.layers == 32);
    for (int k = 0; k < 4; ++k) {
        INFO("micro-batch " << k);
        const StepBands top = step_bands(s, 4, pass_start(k, StepPass::backward));
        CHECK(top.total() == Approx(s.terms.total().value));
        CHECK(top.logits == s.terms.logits.value);
        CHECK(top.activations == Approx(s.terms.activations.value));
    }
    // Nothing on the way is higher.
    for (double u : step_breaks(s, 4))
        CHECK(step_bands(s, 4, u).total() <= Approx(s.terms.total().value));
}

TEST_CASE("activations come layer by layer and go in reverse, the logits first", "[step]") {
    const engine::StagePeak s = stage();
    const double layer = s.terms.activations.value / 32, slot = 1.0 / 33;
    const StepBands start = step_bands(s, 4, 0);
    CHECK(start.activations == 0);
    CHECK(start.logits == 0);
    // Ten layers through the forward: ten layers' activations, no logits yet.
    CHECK(step_bands(s, 4, 10 * slot + 1e-6).activations == Approx(10 * layer));
    CHECK(step_bands(s, 4, 32 * slot + 1e-6).logits == 0);
    // The output layer's backward frees the logits; then the last layer's activations go.
    const double back = pass_start(0, StepPass::backward);
    CHECK(step_bands(s, 4, back + 2 * slot + 1e-6).logits == 0);
    CHECK(step_bands(s, 4, back + 2 * slot + 1e-6).activations == Approx(32 * layer));
    CHECK(step_bands(s, 4, back + 2 * 2 * slot + 1e-6).activations == Approx(31 * layer));
    CHECK(step_bands(s, 4, pass_start(1, StepPass::forward)).activations == 0);
    // What stays allocated does not move.
    CHECK(start.weights == s.terms.weights.value);
    CHECK(start.optimizer == s.terms.optimizer.value);
    CHECK(start.buffers == (s.terms.dp_buckets + s.terms.param_gather + s.terms.tp_gather).value);
    CHECK(start.context == s.terms.context.value);
}

TEST_CASE("the first backward fills the gradient buffer and the optimizer step empties it",
          "[step]") {
    const engine::StagePeak s = stage();
    const double back = pass_start(0, StepPass::backward);
    CHECK(step_bands(s, 4, 0.5).gradients_filled == 0);
    CHECK(step_bands(s, 4, back + 1).gradients_filled == Approx(0.5));
    CHECK(step_bands(s, 4, pass_start(2, StepPass::forward)).gradients_filled == 1);
    CHECK(step_bands(s, 4, step_units(4) - 0.1).gradients_filled == 1);
    CHECK(step_bands(s, 4, step_units(4)).gradients_filled == 0);
    CHECK(step_bands(s, 4, 0.5).gradients == s.terms.gradients.value);  // allocated all along
}
