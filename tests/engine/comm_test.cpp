// Collective volumes, the links each group crosses, and a simulated ring all-reduce.
#include "engine/comm.hpp"

#include "engine_fixtures.hpp"
#include "tests/catch.hpp"

using namespace engine;
using engine_test::llama7b;

TEST_CASE("collective volumes per rank") {
    CHECK(ring_allreduce_bytes(Bytes(1e9), 8) == Bytes(1.75e9));  // 2(n-1)/n
    CHECK(reduce_scatter_bytes(Bytes(1e9), 8) == Bytes(0.875e9));
    CHECK(all_gather_bytes(Bytes(1e9), 4) == Bytes(0.75e9));
    CHECK(ring_allreduce_bytes(Bytes(1e9), 2) == Bytes(1e9));
    CHECK(ring_allreduce_bytes(Bytes(1e9), 1) == Bytes(0));
}

TEST_CASE("data-parallel gradients: ring all-reduce, and ZeRO-3 moves 1.5x") {
    // Gradients 2 x 6,738,415,616 bytes; 2 x 7/8 of them per GPU.
    const CommPerStep dp = comm_per_step(llama7b(8));
    CHECK(dp.dp_per_gpu == Bytes(23'584'454'656));
    CHECK(dp.tp_per_gpu == Bytes(0));
    CHECK(dp.pp_per_gpu == Bytes(0));
    CHECK(dp.dp_time.value == Approx(23'584'454'656 / 450e9));  // NVLink, one direction
    CHECK(comm_per_step(llama7b(8, 1, 1, 1)).dp_per_gpu == dp.dp_per_gpu);
    CHECK(comm_per_step(llama7b(8, 1, 1, 2)).dp_per_gpu == dp.dp_per_gpu);
    const CommPerStep z3 = comm_per_step(llama7b(8, 1, 1, 3));
    CHECK(z3.dp_per_gpu == dp.dp_per_gpu * 1.5);
    CHECK(z3.dp_per_gpu == Bytes(35'376'681'984));
}

TEST_CASE("fp32 gradients double the data-parallel volume") {
    Config c = llama7b(8);
    c.training.grad_dtype = GradDtype::fp32;
    CHECK(comm_per_step(c).dp_per_gpu == Bytes(2 * 23'584'454'656.0));
}

TEST_CASE("tensor parallel: four all-reduces of s*b*h per layer per micro-batch") {
    // 4096 x 4096 x 2 bytes, 2 x 7/8 of it, x 4 x 32 layers x 8 micro-batches.
    const CommPerStep c = comm_per_step(llama7b(8, 8));
    CHECK(c.tp_per_gpu == Bytes(60'129'542'144));
    CHECK(c.dp_per_gpu == Bytes(0));
    CHECK(c.tp_time.value == Approx(60'129'542'144 / 450e9));
}

TEST_CASE("pipeline: one activation each way per micro-batch, v times when interleaved") {
    Config c = llama7b(8, 1, 4);
    CHECK(comm_per_step(c).pp_per_gpu == Bytes(2 * 8 * 33'554'432.0));
    c.training.schedule = Schedule::interleaved;
    c.training.chunks = 2;
    CHECK(comm_per_step(c).pp_per_gpu == Bytes(2 * 2 * 8 * 33'554'432.0));
}

TEST_CASE("each group's traffic crosses NVLink inside a node, else the network") {
    const Config one_node = llama7b(8, 2, 4);
    CHECK(group_bandwidth(one_node, Group::dp) == BytesPerSecond(450e9));
    CHECK(group_bandwidth(one_node, Group::pp) == BytesPerSecond(450e9));
    const Config two_nodes = llama7b(16, 8, 1);
    CHECK(group_bandwidth(two_nodes, Group::tp) == BytesPerSecond(450e9));
    CHECK(group_bandwidth(two_nodes, Group::dp) == BytesPerSecond(50e9));
    const Config pipeline_across = llama7b(16, 8, 2);
    CHECK(group_bandwidth(pipeline_across, Group::pp) == BytesPerSecond(50e9));
    const CommPerStep s = comm_per_step(two_nodes);
    CHECK(s.dp_time.value == Approx(s.dp_per_gpu.value / 50e9));
    CHECK(s.total() == s.dp_time + s.tp_time + s.pp_time);
}

TEST_CASE("ring all-reduce schedule, simulated: every chunk reduced once and reaches everyone") {
    for (int n = 1; n <= 9; ++n) {
        INFO("n = " << n);
        const RingSchedule ring = ring_allreduce_schedule(n);
        CHECK(ring.steps() == 2 * (n - 1));
        CHECK(int(ring.transfers.size()) == n * ring.steps());
        // held[r][c][k]: how many times rank k's contribution to chunk c sits in rank r's copy.
        std::vector held(n, std::vector(n, std::vector<int>(n, 0)));
        for (int r = 0; r < n; ++r) {
            for (int c = 0; c < n; ++c) held[r][c][r] = 1;
        }
        std::vector<int> sent(n, 0);
        for (int step = 0; step < ring.steps(); ++step) {
            const auto before = held;  // all ranks send at once within a step
            for (const ChunkTransfer& t : ring.transfers) {
                if (t.step != step) continue;
                CHECK(t.dst == (t.src + 1) % n);
                CHECK(t.gather == (step >= n - 1));
                ++sent[t.src];
                for (int k = 0; k < n; ++k) {
                    int& dst = held[t.dst][t.chunk][k];
                    dst = t.gather ? before[t.src][t.chunk][k] : dst + before[t.src][t.chunk][k];
                }
            }
            if (step == n - 2) {
                for (int r = 0; r < n; ++r) {
                    CHECK(held[r][(r + 1) % n] == std::vector<int>(n, 1));
                }
            }
        }
        for (int r = 0; r < n; ++r) {
            for (int c = 0; c < n; ++c) CHECK(held[r][c] == std::vector<int>(n, 1));
            CHECK(sent[r] * (1e9 / n) == Approx(ring_allreduce_bytes(Bytes(1e9), n).value));
        }
    }
}

TEST_CASE("ring transfers follow the textbook order") {
    const RingSchedule ring = ring_allreduce_schedule(4);
    CHECK(ring.transfers[0] == ChunkTransfer{0, false, 0, 0, 1});
    CHECK(ring.transfers[5] == ChunkTransfer{1, false, 0, 1, 2});  // rank 1 forwards chunk 0
    CHECK(ring.transfers[12] == ChunkTransfer{3, true, 1, 0, 1});  // rank 0 owns chunk 1
}
