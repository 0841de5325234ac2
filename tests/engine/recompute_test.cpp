// Activation coefficients (34, 5as/h, 2) and the compute recompute costs (about +1/3 when full).
#include "engine/recompute.hpp"

#include <cmath>

#include "engine/flops.hpp"
#include "engine/memory.hpp"
#include "engine_fixtures.hpp"
#include "tests/catch.hpp"

using namespace engine;
using engine_test::config_for;
using engine_test::llama7b;

namespace {
const ModelSpec kLlama = *find_model("llama-2-7b");  // h = 4096, a = 32
}

TEST_CASE("activation coefficients: 34 + 5as/h, 34 with FlashAttention, 2 under full recompute") {
    Training t;
    t.seq_len = 4096;
    t.flash_attention = false;
    ActivationCoefficients c = activation_coefficients(kLlama, t, 1);
    CHECK(c.sbh == 4096.0 * 4096);
    CHECK(c.linear == Approx(34));
    CHECK(c.scores == Approx(5.0 * 32 * 4096 / 4096));  // 160
    CHECK(c.sbh * c.total() == Approx(activation_bytes_per_layer(kLlama, t, 1).value));
    t.recompute = Recompute::selective;
    CHECK(activation_coefficients(kLlama, t, 1).total() == Approx(34));
    t.recompute = Recompute::full;
    c = activation_coefficients(kLlama, t, 1);
    CHECK(c.total() == Approx(2));
    CHECK(c.scores == Approx(0));
    t.recompute = Recompute::none;
    t.flash_attention = true;
    CHECK(activation_coefficients(kLlama, t, 2).linear == Approx(10 + 24.0 / 2));
}

TEST_CASE("recompute's units are the step's executed FLOPs over its model FLOPs") {
    // A GPT-3 175B layer is Narayanan et al.'s 12h^2 (and 13h of biases and norms); with the
    // output layer's share made negligible (a vocabulary of 8) the units are the textbook ones.
    ModelSpec gpt = *find_model("gpt-3-175b");
    gpt.vocab = 8;
    Config c = config_for(gpt, 8);
    c.training.seq_len = gpt.hidden;  // s = h
    CHECK(recompute_compute_units(c).ratio() == 1);
    c.training.recompute = Recompute::full;
    const ComputeUnits full = recompute_compute_units(c);
    CHECK(full.total() == Approx(4).epsilon(1e-4));  // one more forward: 4 units instead of 3
    c.training.recompute = Recompute::selective;
    // s = h: 4s^2h / (24sh^2 + 4s^2h) = 4/28 of a forward, 1/21 more compute (1.04747: the
    // biases and norms the layer's 6 FLOPs per weight count besides Narayanan's 12h^2).
    CHECK(recompute_compute_units(c).ratio() == Approx(1 + 1.0 / 21).epsilon(2e-4));
}

TEST_CASE("full recompute never reruns the output layer: a Llama 2 7B's third is 32.8%") {
    Config c = llama7b(8);
    c.training.recompute = Recompute::full;
    const FlopsReport f = step_flops(c);
    const ComputeUnits u = recompute_compute_units(c);
    CHECK(u.ratio() == Approx(f.executed_per_step / f.model_per_step));
    // Its layers' forward (2 x 202.4M weights + 4sh, 32 layers) over 6N + 12lsh with the head.
    const double layer = parameter_split(c.model).per_layer_active, l = c.model.layers;
    const double lsh = l * 4096.0 * 4096, head = 32000.0 * 4096;
    CHECK(u.ratio() - 1 == Approx((2 * l * layer + 4 * lsh) / (6 * (l * layer + head) + 12 * lsh)));
    CHECK(std::round(1000 * (u.ratio() - 1)) == 328);
}
