// Strategy traffic timed on NVLink (one direction: half the gpus.csv figure) and the network.
#include "engine/interconnect.hpp"

#include "engine/memory.hpp"
#include "engine/presets.hpp"
#include "engine_fixtures.hpp"

using namespace engine;

TEST_CASE("link timings: comm_per_step bytes over each link's one-way bandwidth") {
    const Config c = engine_test::llama7b(16, 4, 2);  // dp 2 across the two nodes
    const LinkTimings l = link_timings(c);
    const CommPerStep s = comm_per_step(c);
    CHECK(nvlink_per_direction(c.cluster).value == 450e9);
    CHECK(l.dp.bytes == s.dp_per_gpu);
    CHECK(l.tp.bytes == s.tp_per_gpu);
    CHECK(l.pp.bytes == s.pp_per_gpu);
    CHECK(l.tp.on_nvlink.value == Approx(s.tp_per_gpu.value / 450e9));
    CHECK(l.tp.on_network.value == Approx(s.tp_per_gpu.value / 50e9));
    // The network is nine times slower than one direction of NVLink on an H100.
    CHECK(l.dp.on_network.value == Approx(9 * l.dp.on_nvlink.value));
    // Each group's own link is the one comm_per_step times it on.
    CHECK(l.dp.crosses_nodes);
    CHECK_FALSE(l.tp.crosses_nodes);
    CHECK_FALSE(l.pp.crosses_nodes);
    CHECK(l.dp.on_network == s.dp_time);
    CHECK(l.tp.on_nvlink == s.tp_time);
}

TEST_CASE("link timings: ring bytes 2(n-1)/n x gradients for data parallel") {
    // 7B-class gradients in bf16 split 4 ways by TP: 2 B x params / 4, all-reduced by 2 ranks.
    const Config c = engine_test::llama7b(16, 4, 2);
    const double grads = 2.0 * params_per_gpu(c.model, c.layout);
    CHECK(link_timings(c).dp.bytes.value == Approx(2.0 * 1 / 2 * grads));
}

TEST_CASE("the InfiniBand generation of one port a GPU") {
    // DGX A100: HDR 200 Gb/s a GPU; DGX H100: NDR 400 Gb/s.
    CHECK(infiniband_generation(BytesPerSecond(25e9)) == "HDR");
    CHECK(infiniband_generation(BytesPerSecond(50e9)) == "NDR");
    CHECK(infiniband_generation(BytesPerSecond(100e9)) == "XDR");
    CHECK(infiniband_generation(BytesPerSecond(12.5e9)) == "EDR");
    CHECK(infiniband_generation(BytesPerSecond(40e9)).empty());
    CHECK(infiniband_generation(find_gpu("h100-sxm-80gb")->network) == "NDR");
    CHECK(infiniband_generation(find_gpu("a100-sxm-80gb")->network) == "HDR");
}
