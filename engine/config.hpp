// Everything the cost model needs to know about one training setup.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/precision.hpp"
#include "engine/presets.hpp"

namespace engine {

enum class Recompute { none, selective, full };
// GPipe, 1F1B and interleaved 1F1B run one whole backward per micro-batch; ZB-H1 and ZB-H2 (Qi et
// al. 2023) and DualPipe (DeepSeek-V3 report, section 3.2.1) split it into B and W.
enum class Schedule { gpipe, one_f_one_b, interleaved, zb_h1, zb_h2, dualpipe };
// Which communication the step-time estimate hides behind compute: none, the data-parallel
// gradient traffic (overlapped with backward, as DDP and FSDP do), or all of it.
enum class Overlap { none, dp, all };
// When the predicted step reduces the gradients over the data-parallel group: bucket by bucket
// during the last backward (PyTorch DDP; Megatron-LM's --overlap-grad-reduce; DeepSpeed's
// overlap_comm), or as one all-reduce of the whole buffer once the last backward has ended
// (nanotron without DDP: its ZeRO-1 with fp32 accumulation; Megatron-LM's default).
enum class GradReduce { overlapped, after_backward };
// How the loss reads the logits: from an fp32 copy whose softmax becomes their fp32 gradient
// (PyTorch's cross_entropy under autocast; nanotron's and Megatron-LM's vocab-parallel cross
// entropy), or in one kernel on the 16-bit logits that writes their 16-bit gradient (flash-attn's
// CrossEntropyLoss, llm-foundry's default fused_crossentropy). Only the expected peak uses it.
enum class CrossEntropy { fp32, fused };
// How context parallelism exchanges keys and values: around a ring, chunk by chunk (Megatron-Core's
// `--cp-comm-type p2p`, ring attention: Liu et al. 2023), or all-gathered before attention with
// the gradients reduce-scattered after it (Llama 3: Dubey et al. 2024, section 3.3.2).
enum class CpMode { ring, allgather };
// Which of the sequence's 2 x cp chunks a context-parallel rank holds: two neighbours (naive: 2r
// and 2r+1), or one from each end (balanced: r and 2cp-1-r, Megatron-Core's load-balanced split),
// so that under the causal mask every rank has the same attention work.
enum class CpSplit { naive, balanced };
// What ZeRO moves to host memory: nothing; the optimizer step (fp32 master, optimizer states and
// the gradients it reads: ZeRO-Offload, Ren et al. 2021); or also the 16-bit parameters
// (ZeRO-Infinity, Rajbhandari et al. 2021).
enum class Offload { none, optimizer, optimizer_params };
// How the layers spread over pipeline stages: ceil(layers / pp) a stage from the first, the
// embedding on the first and the output layer on the last (Megatron-LM's even split); or by
// compute, the output layer weighing vocab x hidden against a layer's weight matrices, each stage
// taking blocks until its share of the running total is passed (nanotron's build_model, in
// models/base.py): the first stages take more layers, the output layer's fewer.
enum class StageSplit { layers, compute };

struct Training {
    Precision precision = Precision::bf16_mixed;
    GradDtype grad_dtype = GradDtype::bf16;
    Optimizer optimizer = Optimizer::adam;
    int seq_len = 4096;
    int micro_batch = 1;
    int micro_batches = 8;
    Recompute recompute = Recompute::none;
    bool flash_attention = true;
    bool sequence_parallel = false;
    Schedule schedule = Schedule::one_f_one_b;
    int chunks = 1;  // virtual stages per GPU (interleaved schedule only)
    // The step-time estimate: 0 predicts it from what limits each part (step_model.hpp); above 0,
    // the fraction of peak the GPUs sustain on the work they do, with the communication hidden
    // behind it as overlap says. A measured step time (seconds, 0: none) replaces the estimate,
    // and MFU and HFU are reported from it.
    double mfu = 0;
    Overlap overlap = Overlap::none;
    double step_time = 0;
    // Mixture of experts: each expert takes at most capacity_factor x its fair share of the
    // tokens (Fedus et al. 2021, Switch Transformer, section 2.1); the all-to-alls carry that
    // many slots.
    double capacity_factor = 1.0;
    // Where gradients accumulate across micro-batches (precision.hpp); only the expected peak
    // counts a separate fp32 buffer.
    GradAccumDtype grad_accum_dtype = GradAccumDtype::same;
    GradReduce grad_reduce = GradReduce::overlapped;
    CrossEntropy cross_entropy = CrossEntropy::fp32;
    bool operator==(const Training&) const = default;
};

struct Cluster {
    GpuSpec gpu;
    int gpus_per_node = 8;
    int nodes = 1;
    BytesPerSecond nvlink, network;
    bool operator==(const Cluster&) const = default;
};

// Data-parallel degree is derived: gpus / (tp * pp * cp). Context parallelism (cp) splits each
// sequence over cp GPUs, which hold the same weights. Expert parallelism (ep) splits the routed
// experts over groups of ep data-parallel ranks: it folds into dp rather than multiplying the
// GPUs (Megatron-Core MoE; Shoeybi et al.'s Megatron-LM `--expert-model-parallel-size`).
struct Parallel {
    int gpus = 1, tp = 1, pp = 1, zero = 0;
    int ep = 1;
    int cp = 1;
    CpMode cp_mode = CpMode::allgather;
    // 0 while a degree is below 1 (validate reports it); the product in 64 bits, as each degree
    // may be up to 65,536.
    int dp() const {
        const long long split = 1LL * tp * pp * cp;
        return split > 0 ? int(gpus / split) : 0;
    }
    // Ranks holding the same weights, over which gradients synchronise and ZeRO shards: dp x cp
    // (Megatron-Core's data-parallel group "with context parallel").
    int replicas() const { return dp() * cp; }
    int expert_dp() const { return ep > 0 ? replicas() / ep : 0; }  // ranks holding one expert
    // Hybrid sharding (PyTorch FSDP's HYBRID_SHARD, Zhao et al. 2023, section 3.2.2): ZeRO-3
    // shards inside groups of shard_group replicas and keeps replicas/shard_group copies.
    // 0: one group of every replica (plain ZeRO).
    int shard_group = 0;
    int zero_shards() const { return shard_group > 0 ? shard_group : replicas(); }
    Offload offload = Offload::none;
    CpSplit cp_split = CpSplit::balanced;
    StageSplit pipeline_split = StageSplit::layers;
    bool operator==(const Parallel&) const = default;
};

struct Config {
    ModelSpec model;
    Training training;
    Cluster cluster;
    Parallel layout;
    bool operator==(const Config&) const = default;
};

// Human-readable problems ("tp x pp = 6 does not divide 8 GPUs"); empty when the config is usable.
std::vector<std::string> validate(const Config& c);

// Micro-batches per step from a global batch of `sequences`: sequences / (dp x micro_batch). A
// problem, naming the values and the nearest batch that splits, when it does not divide.
std::optional<std::string> set_global_batch(Config& c, long long sequences);

std::string_view to_string(Recompute r);
std::optional<Recompute> parse_recompute(std::string_view s);
std::string_view to_string(
    Schedule s);  // "gpipe", "1f1b", "interleaved", "zb-h1", "zb-h2", "dualpipe"
std::optional<Schedule> parse_schedule(std::string_view s);
std::string_view to_string(Overlap o);  // "none", "dp", "all"
std::optional<Overlap> parse_overlap(std::string_view s);
std::string_view to_string(GradReduce g);  // "overlapped", "after-backward"
std::optional<GradReduce> parse_grad_reduce(std::string_view s);
std::string_view to_string(CrossEntropy x);  // "fp32", "fused"
std::optional<CrossEntropy> parse_cross_entropy(std::string_view s);
std::string_view to_string(CpMode m);  // "ring", "allgather"
std::optional<CpMode> parse_cp_mode(std::string_view s);
std::string_view to_string(CpSplit s);  // "naive", "balanced"
std::optional<CpSplit> parse_cp_split(std::string_view s);
std::string_view to_string(Offload o);  // "none", "optimizer", "optimizer+params"
std::optional<Offload> parse_offload(std::string_view s);
std::string_view to_string(StageSplit s);  // "layers", "compute"
std::optional<StageSplit> parse_stage_split(std::string_view s);

}  // namespace engine
