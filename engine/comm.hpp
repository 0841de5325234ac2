// Communication volumes of the collectives each strategy issues per step, and their time.
#pragma once
#include <vector>

#include "engine/config.hpp"
#include "engine/units.hpp"

namespace engine {

Bytes ring_allreduce_bytes(Bytes buffer, int n);  // 2(n-1)/n x B per rank
Bytes reduce_scatter_bytes(Bytes buffer, int n);  // (n-1)/n x B per rank
Bytes all_gather_bytes(Bytes buffer, int n);      // (n-1)/n x B per rank
Bytes all_to_all_bytes(Bytes buffer, int n);      // (n-1)/n x B per rank
// Tokens a GPU routes through one all-to-all of an MoE layer, as bytes: tokens x hidden x 2 x
// top_k x capacity_factor (before the (ep-1)/ep that leaves the GPU).
Bytes expert_dispatch_buffer(const Config& c);
// Keys plus values per token, in elements: 2 x kv_heads x head_dim with GQA (not 2 x hidden);
// MLA's per-head keys (head_dim + rope_dim) and values (v_head_dim).
double kv_width(const ModelSpec& m);

struct CommPerStep {
    Bytes dp_per_gpu, tp_per_gpu, pp_per_gpu;
    Seconds dp_time, tp_time, pp_time;  // each on the link its group crosses
    Bytes ep_per_gpu;                   // expert parallel's all-to-alls
    Seconds ep_time;
    Bytes cp_per_gpu;  // context parallel's key/value exchange
    Seconds cp_time;
    // dp_per_gpu and dp_time split: inside the ZeRO sharding group (all of it without hybrid
    // sharding) and across its copies (hybrid sharding's all-reduce of one shard's gradients).
    Bytes dp_intra_per_gpu, dp_inter_per_gpu;
    Seconds dp_intra_time, dp_inter_time;
    Seconds total() const { return dp_time + tp_time + pp_time + ep_time + cp_time; }
    Bytes sent_per_gpu() const {
        return dp_per_gpu + tp_per_gpu + pp_per_gpu + ep_per_gpu + cp_per_gpu;
    }
    bool operator==(const CommPerStep&) const = default;
};
CommPerStep comm_per_step(const Config& c);

// One-direction bandwidth of the link a parallel group's traffic crosses: NVLink when every
// group of that kind sits inside a node, else the network. Group::dp is the ZeRO sharding group
// (every replica without hybrid sharding), Group::dp_inter the copies of one shard.
enum class Group { dp, tp, pp, ep, cp, dp_inter };
BytesPerSecond group_bandwidth(const Config& c, Group g);

// Chunk-by-chunk ring all-reduce: n-1 reduce-scatter steps then n-1 all-gather steps.
struct ChunkTransfer {
    int step = 0;         // 0 .. 2(n-1)-1
    bool gather = false;  // false: reduce-scatter phase
    int chunk = 0, src = 0, dst = 0;
    bool operator==(const ChunkTransfer&) const = default;
};
struct RingSchedule {
    int n = 0;
    std::vector<ChunkTransfer> transfers;  // ordered by step, then src
    int steps() const { return 2 * (n - 1); }
};
RingSchedule ring_allreduce_schedule(int n);

}  // namespace engine
