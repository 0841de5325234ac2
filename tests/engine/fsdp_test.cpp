// FSDP timeline: gather / compute / reshard per layer, reverse order backward, live memory.
#include "engine/fsdp.hpp"

#include "engine_fixtures.hpp"
#include "tests/catch.hpp"

using namespace engine;
using engine_test::llama7b;

TEST_CASE("FSDP plan for llama-2-7b on 8 GPUs") {
    const FsdpPlan plan = fsdp_plan(llama7b(8));
    CHECK(plan.layers == 32);
    CHECK(plan.shards == 8);
    CHECK(plan.sharded_states == Bytes(16 * 6'738'415'616.0 / 8));
    CHECK(plan.layer_full_bytes == Bytes(2 * 202'383'360.0));
    CHECK(plan.layer_grad_bytes == Bytes(2 * 202'383'360.0));
    CHECK(plan.peak_bytes == plan.sharded_states + Bytes(4 * 202'383'360.0));
    REQUIRE(plan.events.size() == 7 * 32);

    const Bytes base = plan.sharded_states, gathered = base + plan.layer_full_bytes;
    const FsdpEvent& first = plan.events[0];
    CHECK(first.op == FsdpOp::gather);
    CHECK(first.layer == 0);
    CHECK(first.live_bytes_after == gathered);
    // 7/8 of 404,766,720 bytes at 450 GB/s over 2 x 202,383,360 x 4096 flops at 989 TFLOPS.
    CHECK(first.duration == Approx(0.4694959852));
    CHECK(plan.events[1] == FsdpEvent{FsdpOp::forward, 0, first.duration, 1, gathered});
    CHECK(plan.events[2].op == FsdpOp::reshard);
    CHECK(plan.events[2].live_bytes_after == base);

    const std::vector<FsdpOp> backward = {FsdpOp::gather_backward, FsdpOp::backward,
                                          FsdpOp::reduce_scatter, FsdpOp::reshard};
    const std::vector<Bytes> live = {gathered, plan.peak_bytes, gathered, base};
    for (int i = 0; i < 4; ++i) {
        const FsdpEvent& e = plan.events[3 * 32 + i];
        CHECK(e.op == backward[i]);
        CHECK(e.layer == 31);
        CHECK(e.live_bytes_after == live[i]);
    }
    CHECK(plan.events.back().layer == 0);
    CHECK(plan.events[3 * 32 + 1].duration == 2);

    Bytes highest;
    double t = 0;
    for (const FsdpEvent& e : plan.events) {
        CHECK(e.start == t);
        t += e.duration;
        highest = std::max(highest, e.live_bytes_after);
    }
    CHECK(highest == plan.peak_bytes);
    // Compute 3 units per layer plus two gathers and a reduce-scatter of equal size (bf16 grads).
    CHECK(plan.duration() == Approx(32 * (3 + 3 * first.duration)));
}

TEST_CASE("FSDP on one GPU has nothing to gather") {
    const FsdpPlan plan = fsdp_plan(llama7b(1));
    CHECK(plan.sharded_states == Bytes(16 * 6'738'415'616.0));
    CHECK(plan.events[0].duration == 0);
    CHECK(plan.duration() == 32 * 3);
}
