// Context parallelism: each sequence split over cp GPUs, activations divided by cp, keys and values
// exchanged around a ring or all-gathered, and ranks placed tp fastest, then cp, pp, dp.
#include "engine/context_parallel.hpp"

#include <string>

#include "engine/comm.hpp"
#include "engine/layout3d.hpp"
#include "engine/memory.hpp"
#include "engine_fixtures.hpp"
#include "tests/catch.hpp"

using namespace engine;
using engine_test::config_for;
using engine_test::llama7b;

using engine_test::problems;

namespace {

Config llama3_8b(int gpus, int cp, CpMode mode = CpMode::allgather) {
    Config c = config_for(*find_model("llama-3-8b"), gpus);
    c.layout.cp = cp;
    c.layout.cp_mode = mode;
    c.training.seq_len = 8192;
    return c;
}

}  // namespace

TEST_CASE("GQA's keys and values are kv_heads x head_dim, not hidden") {
    // Llama 3 (Dubey et al. 2024, 3.3.2) all-gathers K and V because GQA makes them small:
    // 405B's 8 KV heads of 128 against 128 query heads, K + V = 2,048 per token, hidden / 8.
    const ModelSpec big = *find_model("llama-3.1-405b");
    CHECK(kv_width(big) == 2048);
    CHECK(kv_width(big) == big.hidden / 8.0);
    CHECK(kv_width(*find_model("llama-2-7b")) == 2 * 4096);  // MHA: K and V are h each
    // DeepSeek-V3's MLA: 128 heads of key 128 + 64 rope and value 128.
    CHECK(kv_width(*find_model("deepseek-v3")) == 128 * (128 + 64 + 128));
}

TEST_CASE("context parallel traffic: all-gather 2(cp-1) chunks, ring 3(cp-1), per layer") {
    // One rank's chunk: 8192 / 4 tokens x 2048 x 2 bytes = 8,388,608; 32 layers x 8 micro-batches.
    const CommPerStep gathered = comm_per_step(llama3_8b(8, 4));
    CHECK(gathered.cp_per_gpu == Bytes(2 * 3 * 8'388'608.0 * 32 * 8));
    CHECK(gathered.cp_per_gpu == Bytes(12'884'901'888));
    CHECK(gathered.cp_time.value == Approx(12'884'901'888 / 450e9));  // 4 ranks of one node
    const CommPerStep ring = comm_per_step(llama3_8b(8, 4, CpMode::ring));
    CHECK(ring.cp_per_gpu == Bytes(19'327'352'832));
    CHECK(comm_per_step(llama3_8b(8, 1)).cp_per_gpu == Bytes(0));
    CHECK(gathered.total() == gathered.dp_time + gathered.tp_time + gathered.pp_time +
                                  gathered.ep_time + gathered.cp_time);
}

TEST_CASE("cp divides activations and the boundary traffic, not the weights") {
    Config c = llama7b(8);
    c.layout.cp = 2;
    CHECK(activation_bytes_per_layer(c.model, c.training, 1, 2) == Bytes(570'425'344 / 2));
    CHECK(per_gpu_memory(c).activations == per_gpu_memory(llama7b(8)).activations / 2);
    CHECK(per_gpu_memory(c).weights == per_gpu_memory(llama7b(8)).weights);
    // The dp x cp ranks hold the same weights: gradients synchronise over all 8 (ZeRO too).
    CHECK(c.layout.dp() == 4);
    CHECK(c.layout.replicas() == 8);
    CHECK(comm_per_step(c).dp_per_gpu == Bytes(23'584'454'656));
    c.layout.zero = 1;
    CHECK(per_gpu_memory(c).optimizer == per_gpu_memory(llama7b(8, 1, 1, 1)).optimizer);
    Config tp = llama7b(8, 2);
    const Bytes tp_alone = comm_per_step(tp).tp_per_gpu;
    tp.layout.cp = 2;
    CHECK(comm_per_step(tp).tp_per_gpu == tp_alone / 2);
}

TEST_CASE("placement: tp fastest, then cp, then pp, then dp") {
    Parallel p{16, 2, 2, 0};
    p.cp = 2;
    const Layout3D l = layout_3d(p, 8);
    CHECK(l.dp == 2);
    CHECK(l.ranks[5] == RankPlace{5, 0, 5, 0, 1, 1, 0});
    CHECK(l.ranks[6] == RankPlace{6, 0, 6, 0, 1, 0, 1});
    for (const RankPlace& r : l.ranks) CHECK(r.rank == ((r.dp * 2 + r.pp) * 2 + r.cp) * 2 + r.tp);
    CHECK(l.tp_within_node());
    CHECK(l.within_node(RankGroup::cp));
    CHECK(l.pp_within_node());
    CHECK_FALSE(l.dp_within_node());
    Parallel wide{16, 1, 1, 0};
    wide.cp = 16;
    CHECK_FALSE(layout_3d(wide, 8).within_node(RankGroup::cp));
    CHECK(group_bandwidth(llama3_8b(16, 16), Group::cp) == BytesPerSecond(50e9));
    CHECK(group_bandwidth(llama3_8b(16, 8), Group::cp) == BytesPerSecond(450e9));
}

TEST_CASE("cp must divide the GPUs and the sequence") {
    CHECK(problems(llama3_8b(8, 3)) ==
          "tp x pp x cp = 3 does not divide 8 GPUs (try cp=4)\n"
          "cp = 3 does not divide the sequence of 8192 tokens (try cp=4)\n");
    Config odd = llama3_8b(12, 3);
    odd.training.seq_len = 8000;
    CHECK(problems(odd) == "cp = 3 does not divide the sequence of 8000 tokens (try cp=4)\n");
    CHECK(validate(llama3_8b(8, 4)).empty());
}

TEST_CASE(
    "causal attention work per rank: the naive split leaves rank 0 idle, the balanced one "
    "evens it out") {
    // 2 x cp chunks; a block below the diagonal is 1, a diagonal block half (its upper half is
    // masked). Naive, cp 2: rank 0 holds chunks 0, 1: (0,0) + (1,0) + (1,1) = 0.5 + 1 + 0.5 = 2;
    // rank 1 holds 2, 3: (2,0), (2,1), (3,0), (3,1), (3,2) + two halves = 6.
    CHECK(cp_attention(2, CpSplit::naive, CpMode::ring).work == std::vector<double>{2, 6});
    // Balanced, cp 2: rank 0 holds 0 and 3: 0.5 + 3 + 0.5 = 4; rank 1 holds 1 and 2: 1.5 + 2.5.
    CHECK(cp_attention(2, CpSplit::balanced, CpMode::ring).work == std::vector<double>{4, 4});
    // Naive rank r: (2r + 0.5) + (2r + 1.5) = 4r + 2, the last 2cp - 1 times the first.
    CHECK(cp_attention(4, CpSplit::naive, CpMode::ring).work == std::vector<double>{2, 6, 10, 14});
    CHECK(cp_attention(4, CpSplit::balanced, CpMode::allgather).work ==
          std::vector<double>(4, 8.0));
    CHECK(cp_attention(1, CpSplit::balanced, CpMode::ring).work == std::vector<double>{2});
    const CpAttention eight = cp_attention(8, CpSplit::naive, CpMode::ring);
    CHECK(eight.blocks.size() == 16 * 17 / 2);
    CHECK(eight.work.back() == 15 * eight.work.front());
}

TEST_CASE("balanced split: rank r holds chunks r and 2cp-1-r - naive: 2r and 2r+1") {
    CHECK(cp_chunks(0, 4, CpSplit::balanced) == std::array<int, 2>{0, 7});
    CHECK(cp_chunks(3, 4, CpSplit::balanced) == std::array<int, 2>{3, 4});
    CHECK(cp_chunks(3, 4, CpSplit::naive) == std::array<int, 2>{6, 7});
    for (CpSplit split : {CpSplit::naive, CpSplit::balanced})
        for (int r = 0; r < 4; ++r)
            for (int chunk : cp_chunks(r, 4, split)) CHECK(cp_chunk_owner(chunk, 4, split) == r);
    CHECK(parse_cp_split("balanced") == CpSplit::balanced);
    CHECK(to_string(CpSplit::naive) == "naive");
    CHECK_FALSE(parse_cp_split("zigzag"));
}

TEST_CASE(
    "ring: a block is computed once its keys and values have come round - all-gather: at "
    "once") {
    // Balanced cp 2: rank 0 holds chunks 0 and 3, rank 1 chunks 1 and 2.
    const CpAttention ring = cp_attention(2, CpSplit::balanced, CpMode::ring);
    CHECK(ring.steps == 2);
    const auto block = [&](int q, int k) {
        for (const CpBlock& b : ring.blocks)
            if (b.q == q && b.k == k) return b;
        FAIL("no block " << q << "," << k);
        return CpBlock{};
    };
    CHECK(block(3, 0) == CpBlock{3, 0, 0, 0});  // rank 0's own keys
    CHECK(block(3, 1) == CpBlock{3, 1, 0, 1});  // rank 1's, one step round the ring
    CHECK(block(2, 0) == CpBlock{2, 0, 1, 1});
    CHECK(block(2, 2).diagonal());
    CHECK(ring.transfers == std::vector<CpTransfer>{{1, 1, 0, 1}, {1, 0, 1, 0}});
    // Four ranks round a ring: at step 2 rank 0 gets rank 2's chunks from rank 3.
    const CpAttention four = cp_attention(4, CpSplit::balanced, CpMode::ring);
    CHECK(four.steps == 4);
    CHECK(four.transfers.size() == 3 * 4);
    CHECK(four.transfers[4] == CpTransfer{2, 3, 0, 2});
    const CpAttention gathered = cp_attention(4, CpSplit::balanced, CpMode::allgather);
    CHECK(gathered.steps == 2);
    CHECK(gathered.transfers.size() == 4 * 3);
    for (const CpBlock& b : gathered.blocks)
        CHECK(b.step == (cp_chunk_owner(b.k, 4, CpSplit::balanced) == b.rank ? 0 : 1));
    CHECK(cp_attention(1, CpSplit::naive, CpMode::ring).transfers.empty());
}

TEST_CASE("a chunk is seq_len / 2cp tokens") {
    Config c = llama3_8b(8, 4);
    c.training.seq_len = 131072;
    CHECK(cp_chunk_tokens(c) == 16384);
    CHECK(cp_attention(c).cp == 4);
}
