// The predicted step time; see step_model.hpp. The constants (step_model.hpp) and where each
// comes from:
// - kMatmulPeakShare, kTokensHalf, kWidthHalf: a GPU's matmuls reach a share of peak that falls
//   as either side of the product shrinks (a GEMM's arithmetic intensity, and the waves of tiles
//   that do not fill the GPU's SMs). The share a whole layer reaches, with the memory-bound kernels
//   between its matmuls (norms, SwiGLU, rotary, FlashAttention below its matmul rate), is at most
//   65% on H100 (NVIDIA's Megatron-LM reports 41-48% MFU for large models at scale, before
//   communication); it halves at 256 tokens per micro-batch and at a weight slice 512 wide
//   (hidden / tp). Both half-points are the order of a GEMM tile wave on 132 SMs (128 x 256
//   tiles), set against nanotron's runs (tests/data/measured/), not per row.
// - kHostPerLayer: the host issues a layer's kernels in Python (nanotron, like most PyTorch
//   trainers, without CUDA graphs): about 4 ms for a Llama layer's forward and backward, twice
//   that with tensor parallelism (its collectives and the autograd functions around each linear).
//   When the GPU's work is shorter than that, the GPU waits: small micro-batches on many
//   tensor-parallel ranks run at the host's pace (the benchmark's 1B on tp 8 with one sequence per
//   micro-batch reaches a sixth of its data-parallel throughput; this host time puts it at a
//   thirteenth, and the 4.4-4.8 ms a layer measured there ranks the runs worse:
//   docs/cost-model.md).
// - kHostPerMicroBatch: a pipeline engine's bookkeeping per micro-batch and stage (nanotron's
//   1F1B engine: blocking sends and receives of each tensor's metadata and data, Python state).
// - kRingStepLatency and the bus bandwidths: a ring collective takes steps x 5 us plus its bytes
//   over the bus bandwidth. Inside a node 436 GB/s (nccl-tests' all-reduce bus bandwidth for
//   256 MB on 8x H100 SXM; 97% of NVLink's 450 GB/s each way). Across nodes the lesser of two:
//   the NICs of the group's members in a node (50 GB/s each; NCCL runs a ring on each rail, so a
//   group with 8 members a node can cross at up to 400 GB/s, one with a member a node at 50), and
//   the fabric's bus bandwidth for a group spanning N nodes, 436 GB/s x N^-a.
// - kTreeBandwidthShare: an all-reduce across nodes may run as NCCL's double binary tree instead
//   (Sanders, Speck and Traeff 2009; NCCL 2.4, "Massively Scale Your Deep Learning Training with
//   NCCL 2.4", NVIDIA 2019), which NCCL picks when its tuning model (src/graph/tuning.cc) says it
//   is faster: a chain through each node's members and a tree over the nodes, 2 (members per node
//   - 1 + log2 N) hops of latency where a ring takes 2 (n - 1) steps, at 0.92 of the ring's bus
//   bandwidth (tuning.cc's tree factor; its further correction for medium sizes, 0.5-0.9, is left
//   out). Over 1,024 ranks a ring's 2,046 steps cost 10 ms a collective, a tree's 28 hops 0.14 ms.
// - The exponent a (0.599) puts the two measurements of this kind of cluster (the Ultra-Scale
//   Playbook's) on the curve: 436 GB/s in one node, and 33 GB/s for 256 MB over 64 nodes. That
//   all-reduce is one the tree wins (a ring would pay 2 x 511 steps, 5.1 ms of its 15.5), so its
//   bandwidth on the wire is 36.2 GB/s once the tree's 26 hops and its share are taken out.
//   Between the points the curve gives 288 GB/s over 2 nodes, 126 over 8 and 55 over 32; neither
//   point is fitted to the benchmark's rows.
// - kDdpBucket: PyTorch DDP reduces gradients in 25 MB buckets as the backward produces them;
//   all but the last overlap with the rest of the backward (Li et al. 2020, PyTorch Distributed,
//   section 3.2.3). Each bucket is a collective of its own and pays its latency: over many ranks
//   a ring's 2(n - 1) steps each add up (the 1B's 108 buckets over 128 ranks, 254 steps each:
//   0.14 s), which across nodes NCCL's tree cuts to its hops (16 nodes of 8: 22 a bucket).
#include "engine/step_model.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

#include "engine/comm.hpp"
#include "engine/flops.hpp"
#include "engine/layout3d.hpp"
#include "engine/memory.hpp"
#include "engine/offload.hpp"
#include "engine/pipeline.hpp"
#include "engine/presets.hpp"
#include "engine/stages.hpp"

namespace engine {
namespace {

double tokens_per_micro_batch(const Config& c) {
    return double(c.training.micro_batch) * c.training.seq_len / c.layout.cp;
}

double matmul_efficiency(const Config& c) {
    const double width = double(c.model.hidden) / c.layout.tp;
    return kMatmulPeakShare /
           ((1 + kTokensHalf / tokens_per_micro_batch(c)) * (1 + kWidthHalf / width));
}

// Where a group's collectives run: in one node when every group of its kind is, else across
// the nodes the group spans (at least two).
GroupSpan span_of(const Config& c, RankGroup g) {
    if (within_node(c.layout, c.cluster.gpus_per_node, g)) return {};
    GroupSpan s = group_span(c.layout, c.cluster.gpus_per_node, g);
    s.nodes = std::max(s.nodes, 2);
    return s;
}

// A pipeline's send between stages on different nodes: one GPU's NIC to another's.
GroupSpan p2p_span(const Config& c) {
    return span_of(c, RankGroup::pp).nodes == 1 ? GroupSpan{} : GroupSpan{2, 1};
}

// Tensor parallelism's collectives of one layer and micro-batch, forward and backward: two
// all-reduces each way (Shoeybi et al. 2019), or with sequence parallelism an all-gather and a
// reduce-scatter in their place (Korthikanti et al. 2022), the same bytes in the same n - 1
// steps each: on the critical path, as the next matmul needs them.
Seconds tp_seconds(const Config& c) {
    const int tp = c.layout.tp;
    if (tp == 1) return Seconds(0);
    const Bytes activation(tokens_per_micro_batch(c) * c.model.hidden * 2);
    const Bytes per_gpu = ring_allreduce_bytes(activation, tp);
    const GroupSpan span = span_of(c, RankGroup::tp);
    if (!c.training.sequence_parallel) return allreduce_seconds(c, per_gpu, tp, span) * 4.0;
    return collective_seconds(c, per_gpu * 4.0, 8 * (tp - 1), span);
}

// The FLOPs one token runs in one layer (recomputation included), and in the output layer.
struct TokenFlops {
    double layer = 0, head = 0;
};
TokenFlops token_flops(const Config& c) {
    const FlopsReport f = step_flops(c);
    const double per_token = f.executed_per_step / std::max(1.0, f.tokens_per_step);
    const double head = 6.0 * c.model.vocab * c.model.hidden;
    return {(per_token - head) / c.model.layers, head};
}

// The busiest stage's time for one micro-batch: each layer at the longer of the GPU's time and
// the host's, and the output layer where the stage has it.
void stage_seconds(const Config& c, PredictedStep& s) {
    const TokenFlops f = token_flops(c);
    const double rate = peak_flops(c) * s.matmul_efficiency, tokens = tokens_per_micro_batch(c);
    s.layer_tp = tp_seconds(c);
    s.layer_gpu = Seconds(f.layer * tokens / c.layout.tp / rate) + s.layer_tp;
    s.layer_host = kHostPerLayer * (c.layout.tp > 1 ? 2.0 : 1.0);
    const Seconds layer = std::max(s.layer_gpu, s.layer_host);
    const Seconds head(f.head * tokens / c.layout.tp / rate);
    for (const StageShape& st : stage_shapes(c.model, c.layout.pp, c.layout.pipeline_split))
        s.stage = std::max(s.stage, layer * double(st.layers) + (st.head ? head : Seconds(0)));
}

// Every micro-batch through the busiest stage, stretched by the schedule's bubble; each passes a
// send and a receive (forward and backward) and the engine's per-micro-batch work.
void pipeline_seconds(const Config& c, PredictedStep& s) {
    const Training& t = c.training;
    const int pp = c.layout.pp;
    Seconds per_micro_batch = s.stage;
    if (pp > 1) {
        const double split = t.sequence_parallel ? c.layout.tp : 1;
        const Bytes boundary(tokens_per_micro_batch(c) * c.model.hidden * 2 / split);
        s.p2p = collective_seconds(c, boundary, 1, p2p_span(c));
        per_micro_batch = per_micro_batch + s.p2p * 2.0 + kHostPerMicroBatch;
    }
    const double bubble = bubble_fraction(t.schedule, pp, t.micro_batches, t.chunks);
    s.pipeline = per_micro_batch * (t.micro_batches / std::max(1e-9, 1 - bubble));
}

// The gradients' reduction over the data-parallel group, in the accumulation's dtype (fp32
// accumulation reduces 4-byte gradients). Overlapped, it runs bucket by bucket during the last
// micro-batch's backward (two thirds of its stage time) and only the last bucket is left; ZeRO-1
// and -2 reduce-scatter rather than all-reduce there (each rank updates its shard), and every
// bucket's collective pays its latency: an all-reduce's (ring or, across nodes, tree), or a
// ring's for the reduce-scatters and ZeRO-3's gathers, which NCCL runs as rings only. After the
// backward, the whole buffer is all-reduced once it ends, with nothing to hide behind (nanotron
// all-reduces even at ZeRO-1).
Seconds reduction_exposed(const Config& c, const CommPerStep& comm, const PredictedStep& s,
                          GroupSpan span) {
    const int n = c.layout.zero_shards();
    const Training& t = c.training;
    const double grad = bytes_per_param(t.precision, t.grad_dtype, t.optimizer).gradients;
    const double scale = t.grad_accum_dtype == GradAccumDtype::fp32 ? std::max(1.0, 4 / grad) : 1;
    if (t.grad_reduce == GradReduce::after_backward)
        return allreduce_seconds(c, comm.dp_intra_per_gpu * scale, n, span) + comm.dp_inter_time;
    // One collective per bucket: an all-reduce; with ZeRO-1 and -2 a reduce-scatter (a ring's
    // first half); with ZeRO-3 a layer's gathers and reduce-scatter, on rings.
    const auto one = [&](Bytes per_gpu) {
        switch (c.layout.zero) {
            case 0:
                return allreduce_seconds(c, per_gpu, n, span);
            case 1:
            case 2:
                return collective_seconds(c, per_gpu * 0.5, n - 1, span);
            default:
                return collective_seconds(c, per_gpu, 2 * (n - 1), span);
        }
    };
    const double collectives = reduction_collectives(c);
    const Seconds reduce =
        one(comm.dp_intra_per_gpu * (scale / collectives)) * collectives + comm.dp_inter_time;
    const Seconds bucket = one(ring_allreduce_bytes(kDdpBucket, std::max(n, 1)));
    return std::max(bucket, reduce - s.stage * (2.0 / 3));
}

// The reduction's exposed time; ZeRO-1 and -2 then all-gather the updated 16-bit weights after the
// optimizer step, with nothing to hide behind: with a reduce-scatter, the two halves of an
// all-reduce split by the step (ZeRO, Rajbhandari et al. 2020, sections 5 and 7.2.1).
void dp_seconds(const Config& c, const CommPerStep& comm, PredictedStep& s) {
    const int n = c.layout.zero_shards();
    if (n == 1 && c.layout.replicas() == 1) return;
    const GroupSpan span = span_of(c, RankGroup::shard);
    s.dp_exposed = reduction_exposed(c, comm, s, span);
    if (c.layout.zero == 1 || c.layout.zero == 2) {
        const double weights = params_per_gpu(c.model, c.layout) * 2;
        s.dp_exposed =
            s.dp_exposed + collective_seconds(c, all_gather_bytes(Bytes(weights), n), n - 1, span);
    }
}

}  // namespace

double reduction_collectives(const Config& c) {
    if (c.layout.zero == 3) {
        int layers = 1;
        for (const StageShape& st : stage_shapes(c.model, c.layout.pp, c.layout.pipeline_split))
            layers = std::max(layers, st.layers);
        return layers;
    }
    const Training& t = c.training;
    const double grad = bytes_per_param(t.precision, t.grad_dtype, t.optimizer).gradients;
    const double bytes = params_per_gpu(c.model, c.layout) * grad;
    return std::max(1.0, std::ceil(bytes / kDdpBucket.value));
}

BytesPerSecond nvlink_bus_bandwidth(const Config& c) {
    // 436 GB/s measured of the H100's 450 GB/s each way: NVLink's share a collective reaches.
    return c.cluster.nvlink / 2 * (kNodeBus.value / 450e9);
}

// The anchor's all-reduce over 512 ranks, 8 in each of 64 nodes, as the tree that wins it: its
// time (a ring's bytes per GPU over the measured bus bandwidth) less the tree's hops is the time on
// the wire, at the tree's share of the fabric's bandwidth; the fall from one node to 64 is the
// ratio of the two bandwidths, as a power of 64.
double span_falloff() {
    static const double a = [] {
        const int ranks = int(kSpanAnchorNodes) * 8;
        const Bytes per_gpu = ring_allreduce_bytes(kSpanAnchorBytes, ranks);
        const GroupSpan span{int(kSpanAnchorNodes), 8};
        const Seconds took = per_gpu / kSpanAnchorBus;
        const Seconds wire = took - kRingStepLatency * double(tree_hops(span));
        const BytesPerSecond far(per_gpu.value / (wire.value * kTreeBandwidthShare));
        return std::log(kNodeBus / far) / std::log(kSpanAnchorNodes);
    }();
    return a;
}

int tree_hops(GroupSpan span) {
    const int log2_nodes = std::bit_width(unsigned(std::max(span.nodes, 1) - 1));  // ceil(log2)
    return 2 * (span.per_node - 1 + log2_nodes);
}

BytesPerSecond bus_bandwidth(const Config& c, GroupSpan span) {
    const BytesPerSecond node = nvlink_bus_bandwidth(c);
    if (span.nodes <= 1) return node;
    const BytesPerSecond rails = c.cluster.network * double(span.per_node);
    return std::min(rails, node * std::pow(double(span.nodes), -span_falloff()));
}

Seconds collective_seconds(const Config& c, Bytes per_gpu, int steps, GroupSpan span) {
    return kRingStepLatency * double(std::max(steps, 0)) + per_gpu / bus_bandwidth(c, span);
}

// NCCL runs a ring, or across nodes its double binary tree (Sanders et al. 2009; NCCL 2.4) when
// that is faster. The tree chains each node's members and joins the nodes in a tree, so its
// latency is 2 (members per node - 1 + log2 nodes) hops where the ring's is 2 (n - 1) steps, and
// it reaches kTreeBandwidthShare of the ring's bandwidth (NCCL's tuning model, tuning.cc).
Seconds allreduce_seconds(const Config& c, Bytes per_gpu, int ranks, GroupSpan span) {
    const Seconds ring = collective_seconds(c, per_gpu, 2 * (ranks - 1), span);
    if (span.nodes < 2) return ring;
    const Seconds tree = kRingStepLatency * double(tree_hops(span)) +
                         per_gpu / (bus_bandwidth(c, span) * kTreeBandwidthShare);
    return std::min(ring, tree);
}

PredictedStep predicted_step(const Config& c) {
    PredictedStep s;
    s.matmul_efficiency = matmul_efficiency(c);
    stage_seconds(c, s);
    pipeline_seconds(c, s);
    const CommPerStep comm = comm_per_step(c);
    dp_seconds(c, comm, s);
    s.other = comm.ep_time + comm.cp_time + offload_traffic(c).seconds;
    s.seconds = s.pipeline + s.dp_exposed + s.other;
    return s;
}

}  // namespace engine
