// Expert parallelism: routed experts split over ep ranks of the data-parallel group, their
// ZeRO shards over dp / ep, and four all-to-alls per MoE layer per micro-batch.
#include <string>

#include "engine/comm.hpp"
#include "engine/memory.hpp"
#include "engine/report.hpp"
#include "engine_fixtures.hpp"
#include "tests/catch.hpp"

using namespace engine;
using engine_test::config_for;

namespace {

Config mixtral(int gpus, int tp = 1, int ep = 1, int zero = 0) {
    Config c = config_for(*find_model("mixtral-8x7b"), gpus, tp, 1, zero);
    c.layout.ep = ep;
    return c;
}

// Mixtral's routed experts: 32 layers x 8 experts x SwiGLU's 3 x 4096 x 14,336 (Jiang et al.
// 2024); everything else (attention, norms, routers, embedding, head) is what ep replicates.
constexpr double kRouted = 32.0 * 8 * 3 * 4096 * 14336;  // 45,097,156,608

}  // namespace

TEST_CASE("ep splits the routed experts, and only them") {
    const Config c = mixtral(8, 1, 8);
    const double dense = c.model.params - kRouted;
    CHECK(kRouted == 45'097'156'608.0);
    CHECK(dense == 1'605'636'096.0);
    const GpuParams p = params_on_gpu(c.model, c.layout);
    CHECK(p.dense == Approx(dense).epsilon(1e-12));
    CHECK(p.experts == Approx(kRouted / 8).epsilon(1e-12));
    // bf16-mixed: 2 bytes of weights per parameter; one expert of each layer per GPU.
    CHECK(per_gpu_memory(c).weights.value == Approx(2 * (dense + kRouted / 8)).epsilon(1e-12));
    CHECK(params_on_gpu(c.model, mixtral(8).layout) ==
          GpuParams{c.model.params, 0});  // ep = 1: one copy of everything
    // A dense model has nothing to split.
    Config llama = engine_test::llama7b(8);
    CHECK(parameter_split(llama.model).per_layer_routed == 0);
}

TEST_CASE("ZeRO shards the experts' states over the expert-data-parallel group, dp / ep") {
    // 16 GPUs, dp 16, ep 4: dense states over 16 ranks, experts' over 4.
    const Config c = mixtral(16, 1, 4, 1);
    CHECK(c.layout.expert_dp() == 4);
    const double dense = c.model.params - kRouted, experts = kRouted / 4;
    // Adam with the fp32 master: 12 bytes of optimizer state per parameter.
    CHECK(per_gpu_memory(c).optimizer.value ==
          Approx(12 * dense / 16 + 12 * experts / 4).epsilon(1e-12));
    CHECK(per_gpu_memory(c).weights.value == Approx(2 * (dense + experts)).epsilon(1e-12));
}

TEST_CASE("expert all-to-all: 4 per MoE layer per micro-batch, (ep-1)/ep of the routed tokens") {
    Config c = mixtral(8, 1, 8);
    // 4096 tokens x 4096 x 2 bytes x top_k 2 x capacity 1.0 = 67,108,864 bytes per all-to-all,
    // 7/8 of it leaves the GPU; x 4 x 32 MoE layers x 8 micro-batches.
    CHECK(expert_dispatch_buffer(c) == Bytes(67'108'864));
    const CommPerStep s = comm_per_step(c);
    CHECK(s.ep_per_gpu == Bytes(58'720'256.0 * 4 * 32 * 8));
    CHECK(s.ep_time.value == Approx(s.ep_per_gpu.value / 450e9));  // one node: NVLink each way
    CHECK(s.total() == s.dp_time + s.tp_time + s.pp_time + s.ep_time);
    c.training.capacity_factor = 1.25;  // Switch Transformer's slack: 25% more slots
    CHECK(comm_per_step(c).ep_per_gpu == s.ep_per_gpu * 1.25);
    CHECK(comm_per_step(mixtral(8)).ep_per_gpu == Bytes(0));
}

TEST_CASE("expert all-to-all crosses the network when the EP group spans nodes") {
    // tp 2 on 16 GPUs: dp 8, and an EP group of 8 is every other rank of both nodes.
    const Config across = mixtral(16, 2, 8);
    CHECK(group_bandwidth(across, Group::ep) == BytesPerSecond(50e9));
    CHECK(group_bandwidth(mixtral(16, 1, 8), Group::ep) == BytesPerSecond(450e9));
    CHECK(group_bandwidth(mixtral(16, 1, 2), Group::ep) == BytesPerSecond(450e9));
}

TEST_CASE("data-parallel gradients: dense over dp, experts over dp / ep") {
    const Config c = mixtral(16, 1, 4);
    const double dense = c.model.params - kRouted;
    const double expected = 2 * 2 * dense * 15 / 16 + 2 * 2 * (kRouted / 4) * 3 / 4;
    CHECK(comm_per_step(c).dp_per_gpu.value == Approx(expected).epsilon(1e-12));
}

TEST_CASE("DeepSeek-V3: MoE layers per stage skip the dense ones") {
    Config c = config_for(*find_model("deepseek-v3"), 64, 1, 1);
    c.layout.ep = 64;
    // 61 layers, the first 3 dense: 58 MoE layers, top_k 8 of 256 routed experts.
    const double buffer = 4096.0 * 7168 * 2 * 8;
    CHECK(comm_per_step(c).ep_per_gpu.value ==
          Approx(buffer * 63 / 64 * 4 * 58 * 8).epsilon(1e-12));
    // 256 experts over 64 ranks: 4 of each MoE layer's routed experts per GPU.
    CHECK(params_on_gpu(c.model, c.layout).experts ==
          Approx(58.0 * 4 * 3 * 7168 * 2048).epsilon(1e-12));
}

TEST_CASE("ep must divide the experts and dp, and needs experts") {
    using engine_test::problems;
    CHECK(problems(mixtral(24, 1, 3)) == "ep = 3 does not divide the 8 experts (try ep=4)\n");
    CHECK(problems(mixtral(12, 1, 8)) ==
          "ep = 8 does not divide the data-parallel degree 12: expert parallelism splits the "
          "data-parallel ranks (try ep=4)\n");
    Config llama = engine_test::llama7b(8);
    llama.layout.ep = 2;
    CHECK(problems(llama) ==
          "ep = 2 splits the experts, but llama-2-7b has none (use ep=1, or a mixture of experts "
          "such as mixtral-8x7b)\n");
    Config zero_cf = mixtral(8, 1, 8);
    zero_cf.training.capacity_factor = 0;
    CHECK(problems(zero_cf) ==
          "capacity_factor must be positive (got 0; 1 sends each expert its even share of the "
          "tokens)\n");
    CHECK(validate(mixtral(8, 1, 8)).empty());
}
