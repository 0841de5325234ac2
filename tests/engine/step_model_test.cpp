// The predicted step time (engine/step_model.*), worked by hand for the benchmark's 1B
// (tests/data/measured/): the matmuls' efficiency at the shapes one GPU multiplies, the host's
// pace, tensor-parallel collectives, the pipeline and the exposed data-parallel reduction; and
// the collectives' bandwidth against the measured anchors.
#include "engine/step_model.hpp"

#include <algorithm>
#include <cmath>

#include "engine/comm.hpp"
#include "engine/flops.hpp"
#include "engine/presets.hpp"
#include "engine/report.hpp"
#include "engine/stages.hpp"
#include "engine_fixtures.hpp"
#include "tests/catch.hpp"

using namespace engine;

namespace {

Config one_b(int gpus, int tp = 1, int pp = 1) {
    Config c = engine_test::nanotron_config("1B", gpus, tp, pp);
    c.layout.pipeline_split = StageSplit::compute;
    return c;
}

// A layer's forward and backward FLOPs per token: 6 x its weights (4h^2 + 3h ffn + 2h norms) and
// 12 s h of attention.
constexpr double kLayerFlops =
    6.0 * (4 * 2048.0 * 2048 + 3 * 2048.0 * 8192 + 2 * 2048) + 12.0 * 4096 * 2048;
constexpr double kHeadFlops = 6.0 * 131072 * 2048;

}  // namespace

TEST_CASE("predicted step of the 1B on 8 data-parallel GPUs, part by part") {
    const Config c = one_b(8);
    const PredictedStep s = predicted_step(c);
    // 4,096 tokens a micro-batch and the whole width 2,048: 0.65 / (1 + 256/4096) / (1 + 512/2048).
    const double eff = 0.65 / (1.0625 * 1.25);
    CHECK(s.matmul_efficiency == Approx(eff));
    const double rate = 989e12 * eff;
    CHECK(s.layer_tp == Seconds(0));
    CHECK(s.layer_gpu.value == Approx(kLayerFlops * 4096 / rate));  // 4.25 ms
    CHECK(s.layer_host == kHostPerLayer);                           // 4 ms: the GPU is longer
    CHECK(s.stage.value == Approx(16 * kLayerFlops * 4096 / rate + kHeadFlops * 4096 / rate));
    CHECK(s.p2p == Seconds(0));
    CHECK(s.pipeline.value == Approx(32 * s.stage.value));  // no pipeline, no bubble
    // fp32 gradients of 1.34B parameters all-reduced over 8 GPUs in a node: 2 x 7/8 x 5.37 GB at
    // 436 GB/s and 14 steps of 5 us for each of DDP's 25 MB buckets of 16-bit gradients (108),
    // hidden behind two thirds of the last micro-batch's stage but for the last bucket.
    const double buckets = std::ceil(2 * c.model.params / 25e6);
    CHECK(buckets == 108);
    const double reduce = 14 * 5e-6 * buckets + 2 * 7.0 / 8 * 4 * c.model.params / 436e9;
    CHECK(reduce < s.stage.value * 2 / 3);
    CHECK(s.dp_exposed.value == Approx(14 * 5e-6 + 2 * 7.0 / 8 * 25e6 / 436e9));
    CHECK(s.seconds == s.pipeline + s.dp_exposed);
    // The benchmark measured 39,273 tokens/s per GPU (38.3% MFU) for this layout; predicted 50,100
    // (49% MFU): the model's ceiling, where the host keeps up.
    const Report r = analyze(c);
    CHECK(r.step.seconds == Approx(s.seconds.value));
    CHECK(r.step.tokens_per_second_per_gpu == Approx(50'082).epsilon(0.001));
}

TEST_CASE("ZeRO-1: the gradients reduce-scattered in the backward or all-reduced after it") {
    Config c = one_b(64);  // 8 nodes, each replica's members on 8 NICs: 125.6 GB/s
    c.layout.zero = 1;
    c.training.micro_batches = 4;
    const double bus = bus_bandwidth(c, {8, 8}).value, fp32 = 4 * c.model.params;
    const double gather = 63 * 5e-6 + 63.0 / 64 * 2 * c.model.params / bus;  // 16-bit weights
    // Overlapped: the reduce-scatter's half of the all-reduce, 63 steps for each of its 108
    // buckets, hidden behind two thirds of the last micro-batch's stage as far as it reaches:
    // the buckets' latency (34 ms) reaches past it.
    const PredictedStep hidden = predicted_step(c);
    const double scatter = 63 * 5e-6 * 108 + 63.0 / 64 * fp32 / bus;
    const double bucket = 63 * 5e-6 + 63.0 / 64 * 25e6 / bus;  // half of a 25 MB all-reduce
    const double behind = hidden.stage.value * 2 / 3;
    CHECK(scatter > behind);
    CHECK(hidden.dp_exposed.value == Approx(std::max(bucket, scatter - behind) + gather));
    // After the backward (nanotron's ZeRO-1): the whole fp32 buffer all-reduced, nothing hidden.
    c.training.grad_reduce = GradReduce::after_backward;
    const PredictedStep after = predicted_step(c);
    CHECK(after.dp_exposed.value == Approx(126 * 5e-6 + 2 * 63.0 / 64 * fp32 / bus + gather));
    CHECK((after.seconds - hidden.seconds).value ==
          Approx((after.dp_exposed - hidden.dp_exposed).value));
}

TEST_CASE("DDP's buckets across nodes run as trees and ZeRO-3's collectives stay on rings") {
    Config c = one_b(64);  // 8 nodes of 8: the tree's 2 (7 + 3) hops against the ring's 126 steps
    c.training.micro_batches = 4;
    c.training.grad_reduce = GradReduce::overlapped;
    const double bus = bus_bandwidth(c, {8, 8}).value, fp32 = 4 * c.model.params;
    const double behind = predicted_step(c).stage.value * 2 / 3;
    // ZeRO-0: 108 all-reduces of fp32 buckets, each 20 hops and its bytes at 0.92 of the ring's
    // bandwidth (the ring's 126 steps would cost 0.63 ms of latency a bucket, the tree's 0.1).
    const double tree_bus = 0.92 * bus, hops = 20 * 5e-6;
    const double reduce = 108 * hops + 2 * 63.0 / 64 * fp32 / tree_bus;
    const double bucket = hops + 2 * 63.0 / 64 * 25e6 / tree_bus;
    CHECK(predicted_step(c).dp_exposed.value == Approx(std::max(bucket, reduce - behind)));
    // ZeRO-3: one collective per layer of the stage (16), each on a ring of 126 steps.
    c.layout.zero = 3;
    const double bytes = comm_per_step(c).dp_intra_per_gpu.value * 2;  // fp32 accumulation
    const double ring = 16 * 126 * 5e-6 + bytes / bus;
    const double layer = 126 * 5e-6 + 2 * 63.0 / 64 * 25e6 / bus;
    CHECK(predicted_step(c).dp_exposed.value == Approx(std::max(layer, ring - behind)));
}

TEST_CASE("the overlapped reduction's collectives: one per 25 MB bucket or one per layer") {
    Config c = one_b(64);
    CHECK(reduction_collectives(c) == 108);  // 1.34B 16-bit gradients in 25 MB buckets
    c.layout.tp = 2;                         // half the parameters on each GPU
    CHECK(reduction_collectives(c) == 54);
    c = one_b(64);
    c.layout.zero = 3;  // FSDP: a reduce-scatter per layer
    CHECK(reduction_collectives(c) == 16);
    c = one_b(64, 1, 2);
    c.layout.zero = 3;
    int busiest = 0;
    for (const StageShape& st : stage_shapes(c.model, 2, c.layout.pipeline_split))
        busiest = std::max(busiest, st.layers);
    CHECK(busiest < 16);
    CHECK(reduction_collectives(c) == busiest);
}

TEST_CASE("tensor parallelism: collectives on every layer and the host's pace") {
    const Config c = one_b(8, 8);
    const PredictedStep s = predicted_step(c);
    // A slice 256 wide: the efficiency falls to a third of the whole width's.
    CHECK(s.matmul_efficiency == Approx(0.65 / (1.0625 * 3)));
    // Four all-gathers and four reduce-scatters of 4,096 x 2,048 bf16, 7 steps each, on NVLink.
    const double tp = 8 * 7 * 5e-6 + 4 * 2 * 7.0 / 8 * 4096 * 2048 * 2 / 436e9;
    CHECK(s.layer_tp.value == Approx(tp));
    CHECK(s.layer_host == kHostPerLayer * 2.0);  // with TP the host's work doubles
    CHECK(s.layer_gpu < s.layer_host);           // and the GPU waits for it
    // 16 layers at the host's 8 ms and the output layer on the GPU.
    const double rate = 989e12 * s.matmul_efficiency;
    CHECK(s.stage.value == Approx(16 * 8e-3 + kHeadFlops * 4096 / 8 / rate));
    // The benchmark measured 6,907 tokens/s per GPU (tp 8, 256 micro-batches of one sequence), a
    // sixth of data parallelism's; predicted 3,876, a thirteenth: the host's doubled pace is
    // slower than this run's (docs/cost-model.md: what the model leaves out).
    Config measured = c;
    measured.training.micro_batches = 256;
    CHECK(analyze(measured).step.tokens_per_second_per_gpu == Approx(3'876).epsilon(0.001));
}

TEST_CASE("a pipeline: the busiest stage, send and receive, the engine's work and the bubble") {
    const Config c = one_b(16, 1, 4);  // 6, 5, 5 layers and the output layer alone (nanotron)
    const PredictedStep s = predicted_step(c);
    const double rate = 989e12 * s.matmul_efficiency;
    const double layer = std::max(kLayerFlops * 4096 / rate, 4e-3);
    CHECK(s.stage.value == Approx(6 * layer));  // the first stage: 6 layers, above the head's 4
    // One 4,096 x 2,048 bf16 activation to the next stage in the node, one step.
    CHECK(s.p2p.value == Approx(5e-6 + 4096 * 2048 * 2 / 436e9));
    // 1F1B: m + p - 1 slots of the stage, two transfers and the engine's 20 ms.
    CHECK(s.pipeline.value == Approx((32 + 3) * (s.stage.value + 2 * s.p2p.value + 20e-3)));
}

TEST_CASE("collectives: 436 GB/s inside a node and 33 GB/s across 64 nodes for 256 MB") {
    Config c = one_b(512);
    const Bytes buffer(256e6);
    const auto bus_bandwidth_of = [&](int n, GroupSpan span) {
        const Seconds t = allreduce_seconds(c, ring_allreduce_bytes(buffer, n), n, span);
        return ring_allreduce_bytes(buffer, n).value / t.value;
    };
    CHECK(nvlink_bus_bandwidth(c).value == Approx(436e9));
    CHECK(bus_bandwidth_of(8, {}) == Approx(408e9).epsilon(0.005));  // 70 us of latency on 1 ms
    // The second measured point: 512 ranks, 8 in each of 64 nodes, which the tree wins.
    CHECK(bus_bandwidth_of(512, {64, 8}) == Approx(33e9).epsilon(1e-9));
    const Bytes per_gpu = ring_allreduce_bytes(buffer, 512);
    CHECK(collective_seconds(c, per_gpu, 2 * 511, {64, 8}) >
          allreduce_seconds(c, per_gpu, 512, {64, 8}));
}

TEST_CASE("all-reduces across nodes run as NCCL's tree where it is faster than the ring") {
    const Config c = one_b(1024);
    // 2 (members per node - 1 + ceil(log2 nodes)) hops.
    CHECK(tree_hops({64, 8}) == 2 * (7 + 6));
    CHECK(tree_hops({128, 8}) == 2 * (7 + 7));
    CHECK(tree_hops({3, 1}) == 2 * 2);
    // A 25 MB bucket over 1,024 ranks: the ring's 2,046 steps of 5 us against the tree's 28 hops
    // at 0.92 of the bandwidth.
    const GroupSpan span{128, 8};
    const Bytes bucket = ring_allreduce_bytes(Bytes(25e6), 1024);
    const double bus = bus_bandwidth(c, span).value;
    CHECK(allreduce_seconds(c, bucket, 1024, span).value ==
          Approx(28 * 5e-6 + bucket.value / (0.92 * bus)));
    CHECK(collective_seconds(c, bucket, 2046, span).value ==
          Approx(2046 * 5e-6 + bucket.value / bus));
    // Inside a node the ring it is, whatever the size.
    const Bytes small = ring_allreduce_bytes(Bytes(1e6), 8);
    CHECK(allreduce_seconds(c, small, 8, {}) == collective_seconds(c, small, 14, {}));
    // Over two nodes a large buffer keeps the ring: its bandwidth outweighs 30 steps of latency.
    const Bytes large = ring_allreduce_bytes(Bytes(4e9), 16);
    CHECK(allreduce_seconds(c, large, 16, {2, 8}) == collective_seconds(c, large, 30, {2, 8}));
}

TEST_CASE(
    "collectives across nodes: the fabric falls with the nodes, the NICs cap a sparse group") {
    const Config c = one_b(512);
    CHECK(span_falloff() == Approx(0.5986).margin(1e-4));
    // A full node of members on each of N nodes: the fabric's curve through both measurements.
    CHECK(bus_bandwidth(c, {2, 8}).value == Approx(288.0e9).epsilon(0.002));
    CHECK(bus_bandwidth(c, {8, 8}).value == Approx(125.6e9).epsilon(0.002));
    CHECK(bus_bandwidth(c, {32, 8}).value == Approx(54.8e9).epsilon(0.002));
    CHECK(bus_bandwidth(c, {64, 8}).value == Approx(36.2e9).epsilon(0.002));
    // One member a node crosses on its own NIC: 50 GB/s, as before the curve.
    CHECK(bus_bandwidth(c, {2, 1}).value == Approx(50e9));
    CHECK(bus_bandwidth(c, {8, 2}).value == Approx(100e9));
    CHECK(bus_bandwidth(c, {1, 8}) == nvlink_bus_bandwidth(c));
}

TEST_CASE("an MFU given (--mfu) overrides the prediction") {
    Config c = one_b(8);
    c.training.mfu = 0.4;
    const Report r = analyze(c);
    CHECK(r.step.compute_seconds == Approx(r.flops.executed_per_step / 8 / (0.4 * 989e12)));
    CHECK(r.step.seconds != Approx(predicted_step(c).seconds.value));
}
