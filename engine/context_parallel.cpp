// Context parallelism's causal attention block by block (see context_parallel.hpp).
#include "engine/context_parallel.hpp"

namespace engine {

namespace {

int ring_distance(int from, int to, int cp) { return ((to - from) % cp + cp) % cp; }

// Ring: at step j rank r holds the chunks of rank r - j, handed on by rank r - 1.
// All-gather: every other rank's chunks arrive together at step 1.
int arrival_step(int rank, int owner, int cp, CpMode mode) {
    if (rank == owner) return 0;
    return mode == CpMode::ring ? ring_distance(owner, rank, cp) : 1;
}

std::vector<CpTransfer> transfers(int cp, CpMode mode) {
    std::vector<CpTransfer> out;
    if (mode == CpMode::allgather) {
        for (int dst = 0; dst < cp; ++dst)
            for (int owner = 0; owner < cp; ++owner)
                if (owner != dst) out.push_back({1, owner, dst, owner});
        return out;
    }
    for (int step = 1; step < cp; ++step)
        for (int dst = 0; dst < cp; ++dst)
            out.push_back({step, (dst + cp - 1) % cp, dst, (dst + cp - step) % cp});
    return out;
}

}  // namespace

std::array<int, 2> cp_chunks(int rank, int cp, CpSplit split) {
    if (split == CpSplit::naive) return {2 * rank, 2 * rank + 1};
    return {rank, 2 * cp - 1 - rank};
}

int cp_chunk_owner(int chunk, int cp, CpSplit split) {
    if (split == CpSplit::naive) return chunk / 2;
    return chunk < cp ? chunk : 2 * cp - 1 - chunk;
}

CpAttention cp_attention(int cp, CpSplit split, CpMode mode) {
    CpAttention a;
    a.cp = cp;
    a.steps = cp == 1 ? 1 : mode == CpMode::ring ? cp : 2;
    a.work.assign(cp, 0.0);
    for (int q = 0; q < a.chunks(); ++q)
        for (int k = 0; k <= q; ++k) {
            const int rank = cp_chunk_owner(q, cp, split);
            const int owner = cp_chunk_owner(k, cp, split);
            a.blocks.push_back({q, k, rank, arrival_step(rank, owner, cp, mode)});
            a.work[rank] += q == k ? 0.5 : 1.0;
        }
    if (cp > 1) a.transfers = transfers(cp, mode);
    return a;
}

CpAttention cp_attention(const Config& c) {
    return cp_attention(c.layout.cp, c.layout.cp_split, c.layout.cp_mode);
}

double cp_chunk_tokens(const Config& c) { return double(c.training.seq_len) / (2 * c.layout.cp); }

}  // namespace engine
