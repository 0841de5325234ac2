// Hybrid sharding: ZeRO-3 inside groups of S replicas, copies across them (FSDP HYBRID_SHARD).
#include <string>

#include "engine/comm.hpp"
#include "engine/layout3d.hpp"
#include "engine/memory.hpp"
#include "engine_fixtures.hpp"
#include "tests/catch.hpp"

using namespace engine;
using engine_test::llama7b;

using engine_test::problems;

namespace {

Config hybrid(int gpus, int shard_group, int zero = 3) {
    Config c = llama7b(gpus, 1, 1, zero);
    c.layout.shard_group = shard_group;
    return c;
}

}  // namespace

TEST_CASE("hybrid sharding divides model states by the group, not by dp") {
    // Llama 2 7B, 6,738,415,616 parameters: 2 bytes of weights sharded 8 ways, not 16.
    const PerGpu g = per_gpu_memory(hybrid(16, 8));
    CHECK(g.weights == Bytes(2 * 6'738'415'616.0 / 8));
    CHECK(g.optimizer == Bytes(12 * 6'738'415'616.0 / 8));
    CHECK(g.weights == per_gpu_memory(llama7b(8, 1, 1, 3)).weights);
    CHECK(per_gpu_memory(hybrid(16, 0)).weights == Bytes(2 * 6'738'415'616.0 / 16));
}

TEST_CASE("hybrid sharding traffic: ZeRO-3 inside the node, a shard's all-reduce across nodes") {
    // Gradients 13,476,831,232 bytes: 2 all-gathers + 1 reduce-scatter over 8, 3 x 7/8 of them;
    // then each GPU all-reduces its eighth with the one copy on the other node, 2 x 1/2 of it.
    const CommPerStep s = comm_per_step(hybrid(16, 8));
    CHECK(s.dp_intra_per_gpu == Bytes(35'376'681'984));
    CHECK(s.dp_inter_per_gpu == Bytes(1'684'603'904));
    CHECK(s.dp_per_gpu == s.dp_intra_per_gpu + s.dp_inter_per_gpu);
    CHECK(s.dp_intra_time.value == Approx(35'376'681'984 / 450e9));  // NVLink, one direction
    CHECK(s.dp_inter_time.value == Approx(1'684'603'904 / 50e9));    // the network
    CHECK(s.dp_time == s.dp_intra_time + s.dp_inter_time);
    // Plain ZeRO-3 over both nodes: 3 x 15/16 of the gradients, all on the network.
    const CommPerStep plain = comm_per_step(llama7b(16, 1, 1, 3));
    CHECK(plain.dp_inter_per_gpu == Bytes(0));
    CHECK(plain.dp_intra_per_gpu == Bytes(13'476'831'232.0 * 3 * 15 / 16));
    CHECK(plain.dp_time.value == Approx(plain.dp_per_gpu.value / 50e9));
    CHECK(s.dp_time < plain.dp_time);
}

TEST_CASE("a sharding group larger than a node, or the copies inside one, use the right link") {
    CHECK(group_bandwidth(hybrid(32, 16), Group::dp) == BytesPerSecond(50e9));
    CHECK(group_bandwidth(hybrid(32, 16), Group::dp_inter) == BytesPerSecond(50e9));
    CHECK(group_bandwidth(hybrid(32, 4), Group::dp) == BytesPerSecond(450e9));
    CHECK(group_bandwidth(hybrid(8, 4), Group::dp_inter) == BytesPerSecond(450e9));
}

TEST_CASE("shard_group needs ZeRO-3 and must divide the replicas") {
    CHECK(problems(hybrid(16, 3)) ==
          "shard_group = 3 does not divide the 16 data-parallel ranks (dp x cp) that hold the same "
          "weights (try shard_group=4)\n");
    CHECK(problems(hybrid(16, 8, 1)) ==
          "shard_group = 8 shards ZeRO-3's parameters, gradients and optimizer states, but zero = "
          "1 (use zero=3, or drop shard_group)\n");
    CHECK(validate(hybrid(16, 8)).empty());
}
