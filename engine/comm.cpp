// Bytes each GPU sends per training step for DP, TP, PP and EP, the links they cross, and the
// chunk-by-chunk ring all-reduce schedule.
#include "engine/comm.hpp"

#include <algorithm>

#include "engine/layout3d.hpp"
#include "engine/memory.hpp"

namespace engine {
namespace {

// Activations cross TP and PP boundaries in 16-bit, as Korthikanti et al. 2022 count them.
constexpr double kActivationBytes = 2;

// With context parallelism a rank holds (and hands on) s/cp of the sequence.
Bytes boundary_activation(const Config& c) {
    return Bytes(double(c.training.seq_len) / c.layout.cp * c.training.micro_batch *
                 c.model.hidden * kActivationBytes);
}

// Synchronising the gradients of `params` parameters replicated over n ranks.
Bytes replica_sync_bytes(const Config& c, double params, int n) {
    const Training& t = c.training;
    const Bytes grads(params * bytes_per_param(t.precision, t.grad_dtype, t.optimizer).gradients);
    // ZeRO section 7.2.2 / FSDP: all-gather for forward, again for backward, reduce-scatter of
    // the gradients: 3(n-1)/n x B, 1.5x data parallel. ZeRO-1/2 move what DP moves.
    if (c.layout.zero == 3) {
        return all_gather_bytes(grads, n) + all_gather_bytes(grads, n) +
               reduce_scatter_bytes(grads, n);
    }
    return ring_allreduce_bytes(grads, n);
}

// Dense weights sync over their zero_shards() group, dp x cp without hybrid sharding
// (context-parallel ranks hold the same weights); with ep > 1 the routed experts over dp / ep
// (Megatron-Core's expert-data-parallel group), on the same link: a subset of the dp group.
Bytes dp_intra_bytes(const Config& c) {
    const GpuParams p = params_held(c);
    return replica_sync_bytes(c, p.dense, c.layout.zero_shards()) +
           replica_sync_bytes(c, p.experts, c.layout.expert_dp());
}

// Hybrid sharding (Zhao et al. 2023, FSDP, 3.2.2): after the reduce-scatter inside the group,
// each rank all-reduces its 1/S of the gradients with the replicas/S ranks holding that shard.
Bytes dp_inter_bytes(const Config& c) {
    const Parallel& p = c.layout;
    if (p.shard_group == 0) return Bytes(0);
    const Training& t = c.training;
    const Bytes shard(params_held(c).dense / p.shard_group *
                      bytes_per_param(t.precision, t.grad_dtype, t.optimizer).gradients);
    return ring_allreduce_bytes(shard, p.replicas() / p.shard_group);
}

// MoE layers on the busiest stage: a stage holds ceil(L/pp) layers, and only the first stage
// holds the dense leading ones.
int moe_layers_per_stage(const ModelSpec& m, int pp) {
    return std::min(layers_per_stage(m, pp), m.layers - std::clamp(m.dense_layers, 0, m.layers));
}

Bytes ep_bytes(const Config& c) {
    const int ep = c.layout.ep;
    if (ep == 1 || c.model.experts == 0) return Bytes(0);
    // Lepikhin et al. 2020 (GShard), section 2.2: an all-to-all dispatches each MoE layer's
    // tokens to the experts' ranks and another combines the outputs; backward runs both again
    // (Megatron-Core MoE's alltoall token dispatcher): 4 per MoE layer per micro-batch.
    const double per_step =
        4.0 * moe_layers_per_stage(c.model, c.layout.pp) * c.training.micro_batches;
    return all_to_all_bytes(expert_dispatch_buffer(c), ep) * per_step;
}

Bytes tp_bytes(const Config& c) {
    // Shoeybi et al. 2019, section 3: two all-reduces forward and two backward per layer per
    // micro-batch (with SP, reduce-scatter + all-gather pairs of the same volume).
    const double per_step = 4.0 * layers_per_stage(c.model, c.layout.pp) * c.training.micro_batches;
    return ring_allreduce_bytes(boundary_activation(c), c.layout.tp) * per_step;
}

Bytes pp_bytes(const Config& c) {
    if (c.layout.pp == 1) return Bytes(0);
    // A middle stage sends one activation forward and one gradient back per micro-batch;
    // interleaving multiplies the boundaries by v (Narayanan et al. 2021, section 2.2). Split
    // backwards send only from B (W stays on the GPU, Qi et al. 2023), and a DualPipe GPU's two
    // stages each pass m/2 micro-batches (DeepSeek-V3 report, 3.2.1): both as 1F1B.
    const double chunks = c.training.schedule == Schedule::interleaved ? c.training.chunks : 1;
    return boundary_activation(c) * (2.0 * c.training.micro_batches * chunks);
}

Bytes cp_bytes(const Config& c) {
    const int cp = c.layout.cp;
    if (cp == 1) return Bytes(0);
    // One rank's K and V for its s/cp tokens, its tp share of the heads, in 16-bit.
    const Training& t = c.training;
    const Bytes chunk(double(t.seq_len) / cp * t.micro_batch * kv_width(c.model) / c.layout.tp *
                      kActivationBytes);
    // Ring (Megatron-Core CP, Liu et al. 2023): forward passes each K,V chunk on cp-1 times;
    // backward passes K,V and their gradients on cp-1 times each: 3(cp-1) chunks.
    // All-gather (Llama 3, section 3.3.2): all-gather K,V forward, (cp-1) chunks, and
    // reduce-scatter their gradients backward, (cp-1) chunks again: 2(cp-1).
    const Bytes whole = chunk * cp;
    const Bytes per_layer = c.layout.cp_mode == CpMode::ring
                                ? chunk * (3.0 * (cp - 1))
                                : all_gather_bytes(whole, cp) + reduce_scatter_bytes(whole, cp);
    return per_layer * (double(layers_per_stage(c.model, c.layout.pp)) * t.micro_batches);
}

}  // namespace

double kv_width(const ModelSpec& m) {
    // DeepSeek-V3 report, 2.1.1: MLA attends with per-head keys of head_dim + rope_dim and values
    // of v_head_dim, which CP exchanges once decompressed.
    if (m.arch == Arch::mla)
        return double(m.heads) * (m.mla.head_dim + m.mla.rope_dim + m.mla.v_head_dim);
    // Ainslie et al. 2023 (GQA): kv_heads key and value heads of hidden / heads each.
    return 2.0 * m.kv_heads * (double(m.hidden) / m.heads);
}

// Patarasuk & Yuan 2009: each of n-1 steps moves one B/n chunk per rank.
Bytes reduce_scatter_bytes(Bytes buffer, int n) { return Bytes(buffer.value * (n - 1) / n); }
Bytes all_gather_bytes(Bytes buffer, int n) { return Bytes(buffer.value * (n - 1) / n); }
// All-to-all: each rank keeps 1/n of its buffer and sends the rest, (n-1)/n x B.
Bytes all_to_all_bytes(Bytes buffer, int n) { return Bytes(buffer.value * (n - 1) / n); }

Bytes expert_dispatch_buffer(const Config& c) {
    const Training& t = c.training;
    // Fedus et al. 2021 (Switch Transformer), section 2.1: expert capacity = tokens / experts x
    // capacity factor; with top_k choices each token is sent top_k times (DeepSeek-V3 report,
    // 3.2.2: 8 routed experts per token). Activations travel in 16-bit.
    const double tokens = double(t.micro_batch) * t.seq_len;
    return Bytes(tokens * c.model.hidden * kActivationBytes * c.model.top_k * t.capacity_factor);
}

// Ring all-reduce = reduce-scatter + all-gather: 2(n-1)/n x B.
Bytes ring_allreduce_bytes(Bytes buffer, int n) {
    return reduce_scatter_bytes(buffer, n) + all_gather_bytes(buffer, n);
}

BytesPerSecond group_bandwidth(const Config& c, Group g) {
    const RankGroup group = g == Group::tp   ? RankGroup::tp
                            : g == Group::pp ? RankGroup::pp
                            : g == Group::ep ? RankGroup::ep
                            : g == Group::cp ? RankGroup::cp
                            : g == Group::dp ? RankGroup::shard
                                             : RankGroup::replicas;
    const bool nvlink = within_node(c.layout, c.cluster.gpus_per_node, group);
    // gpus.csv: NVLink's 900 GB/s counts both directions; a ring sends and receives at once,
    // so each direction carries the traffic at half. The network figure is already one way.
    return nvlink ? c.cluster.nvlink / 2 : c.cluster.network;
}

CommPerStep comm_per_step(const Config& c) {
    CommPerStep s;
    s.dp_intra_per_gpu = dp_intra_bytes(c);
    s.dp_inter_per_gpu = dp_inter_bytes(c);
    s.dp_intra_time = s.dp_intra_per_gpu / group_bandwidth(c, Group::dp);
    s.dp_inter_time = s.dp_inter_per_gpu / group_bandwidth(c, Group::dp_inter);
    s.dp_per_gpu = s.dp_intra_per_gpu + s.dp_inter_per_gpu;
    s.tp_per_gpu = tp_bytes(c);
    s.pp_per_gpu = pp_bytes(c);
    s.dp_time = s.dp_intra_time + s.dp_inter_time;
    s.tp_time = s.tp_per_gpu / group_bandwidth(c, Group::tp);
    s.pp_time = s.pp_per_gpu / group_bandwidth(c, Group::pp);
    s.ep_per_gpu = ep_bytes(c);
    s.ep_time = s.ep_per_gpu / group_bandwidth(c, Group::ep);
    s.cp_per_gpu = cp_bytes(c);
    s.cp_time = s.cp_per_gpu / group_bandwidth(c, Group::cp);
    return s;
}

RingSchedule ring_allreduce_schedule(int n) {
    RingSchedule ring{n, {}};
    for (int step = 0; step < ring.steps(); ++step) {
        const bool gather = step >= n - 1;
        const int k = gather ? step - (n - 1) : step;
        for (int r = 0; r < n; ++r) {
            // Reduce-scatter step k: rank r passes chunk (r - k) mod n on, so after n-1 steps it
            // owns the reduced chunk (r + 1) mod n; the all-gather circulates those, one ahead.
            const int chunk = ((gather ? r + 1 : r) - k + n) % n;
            ring.transfers.push_back({step, gather, chunk, r, (r + 1) % n});
        }
    }
    return ring;
}

}  // namespace engine
