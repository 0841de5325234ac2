// Tensor-parallel traffic: the all-reduce buffer, the count per layer, and time per link.
#include "engine/tensor_parallel.hpp"

#include "engine/comm.hpp"
#include "engine_fixtures.hpp"
#include "tests/catch.hpp"

using namespace engine;
using engine_test::llama7b;

TEST_CASE("tp all-reduce buffer is s*b*h 16-bit activations") {
    Config c = llama7b(8, 2);
    CHECK(tp_allreduce_buffer(c) == Bytes(4096.0 * 1 * 4096 * 2));
    c.training.micro_batch = 2;
    CHECK(tp_allreduce_buffer(c) == Bytes(4096.0 * 2 * 4096 * 2));
}

TEST_CASE("tp traffic per step is four ring all-reduces per layer per micro-batch") {
    const Config c = llama7b(8, 2);
    const Bytes per_step =
        ring_allreduce_bytes(tp_allreduce_buffer(c), 2) * double(kTpAllReducesPerLayer * 32 * 8);
    CHECK(comm_per_step(c).tp_per_gpu == per_step);
    CHECK(per_step == Bytes(4096.0 * 4096 * 2 * 4 * 32 * 8));  // 2(2-1)/2 = 1 buffer per all-reduce
}

TEST_CASE("tp traffic takes nine times longer on the network than on NVLink") {
    const Config c = llama7b(8, 4);
    const TpLinkTimes times = tp_link_times(c);
    const Bytes bytes = comm_per_step(c).tp_per_gpu;
    CHECK(times.nvlink_bw == BytesPerSecond(450e9));
    CHECK(times.network_bw == BytesPerSecond(50e9));
    CHECK(times.on_nvlink.value == Approx(bytes.value / 450e9));
    CHECK(times.on_network.value == Approx(bytes.value / 50e9));
    CHECK(times.on_nvlink == comm_per_step(c).tp_time);  // the group sits inside the node
}
