// Context parallelism's causal attention block by block: the sequence cut into 2 x cp chunks, the
// chunks each rank holds under a split, which blocks of the causal score matrix each rank
// computes and at which step of the key/value exchange, and the attention work of each rank.
#pragma once
#include <array>
#include <vector>

#include "engine/config.hpp"

namespace engine {

// The two of the 2 x cp sequence chunks a rank holds, lower first: naive 2r and 2r+1; balanced r
// and 2cp-1-r (Megatron-Core's load-balanced context parallelism; Llama 3, section 3.3.2).
std::array<int, 2> cp_chunks(int rank, int cp, CpSplit split);
int cp_chunk_owner(int chunk, int cp, CpSplit split);

// A block of the causal attention matrix: the queries of chunk q against the keys of chunk k
// (k <= q; the diagonal k == q is half masked), computed by the rank holding chunk q at `step` of
// the key/value exchange, once chunk k's keys and values have reached it (step 0: its own).
struct CpBlock {
    int q = 0, k = 0, rank = 0, step = 0;
    bool diagonal() const { return q == k; }
    bool operator==(const CpBlock&) const = default;
};

// One hand-on of the exchange: at `step`, src sends dst the keys and values of rank owner's chunks.
struct CpTransfer {
    int step = 0, src = 0, dst = 0, owner = 0;
    bool operator==(const CpTransfer&) const = default;
};

struct CpAttention {
    int cp = 1;
    // Ring: cp steps (its own chunks, then cp - 1 hand-ons to the next rank, Liu et al. 2023);
    // all-gather: 2 (its own, then every other rank's at once).
    int steps = 1;
    std::vector<CpBlock> blocks;        // by q, then k
    std::vector<CpTransfer> transfers;  // by step, then dst, then owner
    // Per rank, in blocks: a diagonal block counts half (the causal mask hides the rest).
    std::vector<double> work;
    int chunks() const { return 2 * cp; }
};
CpAttention cp_attention(int cp, CpSplit split, CpMode mode);
CpAttention cp_attention(const Config& c);  // of c.layout's cp, cp_split and cp_mode

// Tokens in one of the 2 x cp chunks of a sequence: seq_len / (2 cp).
double cp_chunk_tokens(const Config& c);

}  // namespace engine
