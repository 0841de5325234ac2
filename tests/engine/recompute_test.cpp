// Activation coefficients (34, 5as/h, 2) and the compute recompute costs (+1/3 when full).
#include "engine/recompute.hpp"

#include "engine/memory.hpp"
#include "engine_fixtures.hpp"
#include "tests/catch.hpp"

using namespace engine;

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

TEST_CASE("full recompute costs one more forward: 4 units instead of 3") {
    Training t;
    CHECK(recompute_compute_units(kLlama, t).ratio() == 1);
    t.recompute = Recompute::full;
    const ComputeUnits full = recompute_compute_units(kLlama, t);
    CHECK(full.total() == 4);
    CHECK(full.ratio() == Approx(4.0 / 3));
    t.recompute = Recompute::selective;
    // s = h: 4s^2h / (24sh^2 + 4s^2h) = 4/28 of a forward, 1/21 more compute.
    CHECK(recompute_compute_units(kLlama, t).ratio() == Approx(1 + 1.0 / 21));
}
