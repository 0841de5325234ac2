// ZeRO-Offload and ZeRO-Infinity: what moves to host memory, and the PCIe traffic per step.
#include "engine/offload.hpp"

#include <string>

#include "engine/memory.hpp"
#include "engine/report.hpp"
#include "engine_fixtures.hpp"
#include "tests/catch.hpp"

using namespace engine;
using engine_test::llama7b;

using engine_test::problems;

namespace {

constexpr double kM = 6'738'415'616;  // Llama 2 7B's parameters

Config offloaded(int gpus, int zero, Offload o, int micro_batches = 1) {
    Config c = llama7b(gpus, 1, 1, zero);
    c.layout.offload = o;
    c.training.micro_batches = micro_batches;
    c.training.mfu = 0.4;  // the overlap rules of the assumed-MFU estimate
    return c;
}

}  // namespace

TEST_CASE("ZeRO-Offload, section 4: 2M bytes of gradients down and 2M of parameters up a step") {
    // One GPU, M parameters in fp16/bf16: the paper's per-step PCIe volume, 2M each way.
    const OffloadTraffic t = offload_traffic(offloaded(1, 2, Offload::optimizer));
    CHECK(t.down == Bytes(2 * kM));
    CHECK(t.up == Bytes(2 * kM));
    // H100 PCIe Gen5 x16: 128 GB/s both directions, 64 GB/s each way.
    CHECK(t.seconds.value == Approx(4 * kM / 64e9));
    CHECK(offload_traffic(llama7b(1, 1, 1, 2)) == OffloadTraffic{});
}

TEST_CASE("ZeRO-Offload keeps 2M bytes of fp16 weights on the GPU and 14M on the host") {
    // Ren et al. 2021, 4.1: the fp32 master, momentum and variance (12M) and the fp16 gradients
    // (2M) go to the CPU; the GPU keeps the fp16 parameters (2M) of 16M.
    const PerGpu g = per_gpu_memory(offloaded(1, 2, Offload::optimizer));
    CHECK(g.weights == Bytes(2 * kM));
    CHECK(g.gradients == Bytes(0));
    CHECK(g.optimizer == Bytes(0));
    CHECK(g.host == Bytes(14 * kM));
    CHECK(per_gpu_memory(llama7b(1)).host == Bytes(0));
    // ZeRO-Infinity with ZeRO-3 on 8 GPUs: each GPU's sixteenth of everything on its host.
    const PerGpu z3 = per_gpu_memory(offloaded(8, 3, Offload::optimizer_params));
    CHECK(z3.weights == Bytes(0));
    CHECK(z3.host == Bytes(16 * kM / 8));
}

TEST_CASE("offload traffic: each rank its partition - offloaded weights fetched per micro-batch") {
    // ZeRO-2, 8 GPUs, 4 micro-batches: gradients of the M/8 partition go down every micro-batch.
    const OffloadTraffic opt = offload_traffic(offloaded(8, 2, Offload::optimizer, 4));
    CHECK(opt.down == Bytes(2 * kM / 8 * 4));
    CHECK(opt.up == Bytes(2 * kM / 8));
    // ZeRO-Infinity: the partition comes up for each forward and each backward.
    const OffloadTraffic all = offload_traffic(offloaded(8, 3, Offload::optimizer_params, 4));
    CHECK(all.down == Bytes(2 * kM / 8 * 4));
    CHECK(all.up == Bytes(2 * kM / 8 * 2 * 4));
}

TEST_CASE("offload's PCIe time is exposed in the step under overlap none") {
    const Config c = offloaded(8, 2, Offload::optimizer, 4);
    const Report r = analyze(c);
    CHECK(r.offload == offload_traffic(c));
    CHECK(r.step.exposed_comm_seconds == Approx(r.comm.total().value + r.offload.seconds.value));
    const Report plain = analyze(offloaded(8, 2, Offload::none, 4));
    CHECK(r.step.seconds - plain.step.seconds == Approx(r.offload.seconds.value));
}

TEST_CASE("offload needs ZeRO's partitions") {
    CHECK(problems(offloaded(8, 0, Offload::optimizer)) ==
          "offload = optimizer moves ZeRO's optimizer partition to the host, but zero = 0 (use "
          "zero=1 or higher)\n");
    CHECK(problems(offloaded(8, 2, Offload::optimizer_params)) ==
          "offload = optimizer+params needs ZeRO-3's parameter partitions (ZeRO-Infinity), but "
          "zero = 2 (use zero=3, or offload=optimizer)\n");
    CHECK(validate(offloaded(8, 3, Offload::optimizer_params)).empty());
}

TEST_CASE("offload refuses an optimizer DeepSpeed cannot step on the host") {
    Config c = offloaded(8, 3, Offload::optimizer);
    for (const Optimizer o : {Optimizer::adam, Optimizer::lion}) {
        c.training.optimizer = o;
        CHECK(validate(c).empty());
    }
    c.training.optimizer = Optimizer::adam_8bit;
    CHECK(
        problems(c) ==
        "offload = optimizer steps the optimizer on the host's CPUs, where DeepSpeed has Adam and "
        "Lion only; optimizer = adam-8bit has no CPU step (use optimizer=adam or lion, or "
        "offload=none)\n");
    for (const Optimizer o : {Optimizer::sgd_momentum, Optimizer::adafactor, Optimizer::muon}) {
        c.training.optimizer = o;
        CHECK(validate(c).size() == 1);
    }
    c.layout.offload = Offload::none;
    CHECK(validate(c).empty());
}

TEST_CASE("the host's bytes by part: what left the GPU, and their sum is host") {
    const PerGpu kept = per_gpu_memory(offloaded(8, 3, Offload::none));
    const PerGpu opt = per_gpu_memory(offloaded(8, 3, Offload::optimizer));
    CHECK(opt.offloaded.optimizer == kept.optimizer);
    CHECK(opt.offloaded.gradients == kept.gradients);
    CHECK(opt.offloaded.weights == Bytes(0));
    CHECK(opt.host == opt.offloaded.total());
    const PerGpu all = per_gpu_memory(offloaded(8, 3, Offload::optimizer_params));
    CHECK(all.offloaded.weights == kept.weights);
    CHECK(all.host == kept.weights + kept.gradients + kept.optimizer);
    CHECK(kept.offloaded == HostBytes{});
}

TEST_CASE("offload's exposed PCIe time: all of it unless overlapped, then what compute leaves") {
    Config c = offloaded(8, 2, Offload::optimizer, 4);
    CHECK(pcie_each_way(c.cluster.gpu) == BytesPerSecond(64e9));
    const Report plain = analyze(c);
    CHECK(exposed_offload_seconds(c, plain.offload, plain.step) == plain.offload.seconds);
    c.training.overlap = Overlap::all;
    const Report hidden = analyze(c);
    REQUIRE(hidden.offload.seconds.value < hidden.step.compute_seconds);
    CHECK(exposed_offload_seconds(c, hidden.offload, hidden.step) == Seconds(0));
    StepReport short_step = hidden.step;
    short_step.compute_seconds = hidden.offload.seconds.value / 4;
    CHECK(exposed_offload_seconds(c, hidden.offload, short_step).value ==
          Approx(hidden.offload.seconds.value * 3 / 4));
}
