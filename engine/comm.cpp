// Bytes each GPU sends per training step for DP, TP and PP, the links they cross, and the
// chunk-by-chunk ring all-reduce schedule.
#include "engine/comm.hpp"

#include "engine/layout3d.hpp"
#include "engine/memory.hpp"

namespace engine {
namespace {

// Activations cross TP and PP boundaries in 16-bit, as Korthikanti et al. 2022 count them.
constexpr double kActivationBytes = 2;

Bytes boundary_activation(const Config& c) {
    return Bytes(double(c.training.seq_len) * c.training.micro_batch * c.model.hidden *
                 kActivationBytes);
}

Bytes dp_bytes(const Config& c) {
    const int n = c.layout.dp();
    // DualPipe's two stage copies both have gradients to reduce (params_held).
    const Bytes grads(params_held(c) * bytes_per_param(c.training.precision, c.training.grad_dtype,
                                                       c.training.optimizer)
                                           .gradients);
    // ZeRO section 7.2.2 / FSDP: all-gather for forward, again for backward, reduce-scatter of
    // the gradients: 3(n-1)/n x B, 1.5x data parallel. ZeRO-1/2 move what DP moves.
    if (c.layout.zero == 3) {
        return all_gather_bytes(grads, n) + all_gather_bytes(grads, n) +
               reduce_scatter_bytes(grads, n);
    }
    return ring_allreduce_bytes(grads, n);
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

}  // namespace

// Patarasuk & Yuan 2009: each of n-1 steps moves one B/n chunk per rank.
Bytes reduce_scatter_bytes(Bytes buffer, int n) { return Bytes(buffer.value * (n - 1) / n); }
Bytes all_gather_bytes(Bytes buffer, int n) { return Bytes(buffer.value * (n - 1) / n); }
// Ring all-reduce = reduce-scatter + all-gather: 2(n-1)/n x B.
Bytes ring_allreduce_bytes(Bytes buffer, int n) {
    return reduce_scatter_bytes(buffer, n) + all_gather_bytes(buffer, n);
}

BytesPerSecond group_bandwidth(const Config& c, Group g) {
    const int per_node = c.cluster.gpus_per_node;
    const bool nvlink = g == Group::tp   ? tp_within_node(c.layout, per_node)
                        : g == Group::pp ? pp_within_node(c.layout, per_node)
                                         : dp_within_node(c.layout, per_node);
    // gpus.csv: NVLink's 900 GB/s counts both directions; a ring sends and receives at once,
    // so each direction carries the traffic at half. The network figure is already one way.
    return nvlink ? c.cluster.nvlink / 2 : c.cluster.network;
}

CommPerStep comm_per_step(const Config& c) {
    CommPerStep s;
    s.dp_per_gpu = dp_bytes(c);
    s.tp_per_gpu = tp_bytes(c);
    s.pp_per_gpu = pp_bytes(c);
    s.dp_time = s.dp_per_gpu / group_bandwidth(c, Group::dp);
    s.tp_time = s.tp_per_gpu / group_bandwidth(c, Group::tp);
    s.pp_time = s.pp_per_gpu / group_bandwidth(c, Group::pp);
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
