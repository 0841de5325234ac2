// shardreel's model-state memory against DeepSpeed's own estimator, where the two count the same
// things, and where and why they differ.
#include "engine/memory.hpp"
#include "engine_fixtures.hpp"
#include "tests/catch.hpp"

using namespace engine;

namespace {

// DeepSpeed's estimate_zero3_model_states_mem_needs (deepspeed/runtime/zero/stage3.py), with
// zero_init on, for one node: per GPU and per node (CPU) bytes for P parameters on n GPUs,
// the largest layer holding L of them.
struct DeepSpeedEstimate {
    double gpu, cpu;
};
DeepSpeedEstimate deepspeed_zero3(double P, double L, int n, bool offload_optimizer,
                                  bool offload_params) {
    const double buffer = 1.5;  // its additional_buffer_factor
    const double largest_layer = 4 * L;
    if (offload_optimizer && offload_params) return {largest_layer, P * 18 * buffer};
    if (offload_optimizer) return {largest_layer + 2 * P / n, P * 16 * buffer};
    return {largest_layer + 18 * P / n, L * 4 * n * buffer};
}

}  // namespace

TEST_CASE("ZeRO-3 model states per GPU and on the host agree with DeepSpeed's estimator") {
    // DeepSpeed's memory-requirements example: bigscience/T0_3B, 2,851M parameters, a largest
    // layer of 32.9M (its embedding), on one node of 8 GPUs. DeepSpeed counts 18 bytes a
    // parameter: its gradients are fp32 (shardreel's grad_dtype fp32: 2 + 4 + 12). Where the
    // conventions differ: DeepSpeed adds 4 bytes x the largest layer on each GPU (the buffer a
    // layer is gathered into, which shardreel does not count, as ZeRO's Table 1 does not), and
    // multiplies host memory by 1.5 for pinned buffers (additional_buffer_factor).
    const double P = 2851e6, L = 32.9e6;
    Config c = engine_test::config_for(nominal_model(P), 8, 1, 1, 3);
    c.training.grad_dtype = GradDtype::fp32;
    const auto states = [](const PerGpu& g) {
        return g.weights.value + g.gradients.value + g.optimizer.value;
    };
    struct Case {
        Offload offload;
        bool optimizer, params;
    };
    for (const Case& k : {Case{Offload::none, false, false}, Case{Offload::optimizer, true, false},
                          Case{Offload::optimizer_params, true, true}}) {
        INFO(to_string(k.offload));
        c.layout.offload = k.offload;
        const PerGpu g = per_gpu_memory(c);
        const DeepSpeedEstimate ds = deepspeed_zero3(P, L, 8, k.optimizer, k.params);
        CHECK(states(g) == Approx(ds.gpu - 4 * L).epsilon(1e-12));
        if (k.optimizer) CHECK(g.host.value * 8 == Approx(ds.cpu / 1.5).epsilon(1e-12));
    }
    // Without offload: 18 x 2,851M / 8 + 4 x 32.9M = 6.55e9 bytes, the 6.10 GiB DeepSpeed prints.
    CHECK(deepspeed_zero3(P, L, 8, false, false).gpu / (1LL << 30) == Approx(6.10).margin(0.005));
}
