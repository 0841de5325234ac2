// Checks that a configuration is usable, with messages that name the values and suggest a fix,
// and the names of the recompute and schedule options.
#include "engine/config.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>

#include "engine/names.hpp"
#include "engine/problem.hpp"
#include "engine/stages.hpp"

namespace engine {
namespace {

using Problems = std::vector<Problem>;

ProblemArg num(const char* name, long long v) { return {name, std::to_string(v), true}; }
ProblemArg word(const char* name, std::string_view v) { return {name, std::string(v), false}; }

void add(Problems& out, Msg m, std::vector<ProblemArg> args = {}) {
    out.push_back({problem_format(m), std::move(args)});
}

// The divisor of n closest to target, the larger one on a tie.
int nearest_divisor(int n, int target) {
    int best = 1;
    for (int d = 1; d <= n; ++d) {
        if (n % d == 0 && std::abs(d - target) <= std::abs(best - target)) best = d;
    }
    return best;
}

// A real number as printf's %g writes it.
ProblemArg real(const char* name, double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return {name, text, true};
}

// Records "name = v must be at least 1"; returns whether v was fine, so dependent checks can
// skip values that would divide by zero.
bool at_least_one(Problems& out, const char* name, int v) {
    if (v >= 1) return true;
    add(out, Msg::at_least_one, {word("name", name), num("value", v)});
    return false;
}

// Records "what = n is not divisible by by = d (try fix=k)" with k the divisor of `fits`
// nearest to d (fits: n itself, or a number every constraint on `fix` divides).
void divisible(Problems& out, const char* what, int n, const char* by, int d, const char* fix,
               int fits) {
    if (n % d == 0) return;
    add(out, Msg::not_divisible,
        {word("what", what), num("value", n), word("by", by), num("divisor", d), word("fix", fix),
         num("fit", nearest_divisor(fits, d))});
}

// Context parallelism: tp x pp x cp GPUs per replica, and each rank an equal part of the sequence
// (Megatron-Core splits it in 2 x cp chunks for balance; that finer rule is not checked).
void check_context(Problems& out, const Config& c, long long tp_pp) {
    const Parallel& p = c.layout;
    if (p.cp == 1) return;
    if (p.gpus % (tp_pp * p.cp) != 0)
        add(out, Msg::tp_pp_cp_gpus,
            {num("product", tp_pp * p.cp), num("gpus", p.gpus),
             num("cp", nearest_divisor(int(p.gpus / tp_pp), p.cp))});
    const int seq = c.training.seq_len;
    if (seq >= 1 && seq % p.cp != 0)
        add(out, Msg::cp_sequence,
            {num("cp", p.cp), num("seq_len", seq),
             num("fit", nearest_divisor(std::gcd(seq, int(p.gpus / tp_pp)), p.cp))});
}

void check_layout(Problems& out, const Config& c) {
    const Parallel& p = c.layout;
    const bool gpus_ok = at_least_one(out, "gpus", p.gpus);
    const bool tp_ok = at_least_one(out, "tp", p.tp);
    const bool pp_ok = at_least_one(out, "pp", p.pp);
    const bool cp_ok = at_least_one(out, "cp", p.cp);
    if (p.zero < 0 || p.zero > 3) add(out, Msg::zero_stage, {num("zero", p.zero)});
    const long long tp_pp = 1LL * p.tp * p.pp;  // both may be up to 65536
    if (!(gpus_ok && tp_ok && pp_ok && cp_ok)) return;
    if (p.gpus % tp_pp == 0) return check_context(out, c, tp_pp);
    // Suggest a tp that also splits the attention heads, keeping the user's tp when it can.
    const int heads = std::gcd(c.model.heads, c.model.kv_heads);
    const int tp = p.gpus % p.tp == 0 ? p.tp : nearest_divisor(std::gcd(p.gpus, heads), p.tp);
    add(out, Msg::tp_pp_gpus,
        {num("product", tp_pp), num("gpus", p.gpus), num("tp", tp),
         num("pp", nearest_divisor(p.gpus / tp, p.pp))});
}

void check_model(Problems& out, const Config& c) {
    const ModelSpec& m = c.model;
    if (!(m.params > 0)) add(out, Msg::params_positive, {real("params", m.params)});
    const bool layers_ok = at_least_one(out, "layers", m.layers);
    at_least_one(out, "hidden", m.hidden);
    at_least_one(out, "ffn", m.ffn);
    at_least_one(out, "vocab", m.vocab);
    const bool heads_ok = at_least_one(out, "heads", m.heads);
    const bool kv_ok = at_least_one(out, "kv_heads", m.kv_heads);
    if (m.experts > 0 && (m.top_k < 1 || m.top_k > m.experts))
        add(out, Msg::top_k_range, {num("experts", m.experts), num("top_k", m.top_k)});
    if (m.experts == 0 && (m.shared_experts > 0 || m.dense_layers > 0))
        add(out, Msg::moe_shape_only);
    if (layers_ok && m.dense_layers >= m.layers && m.experts > 0)
        add(out, Msg::dense_layers_all,
            {num("dense_layers", m.dense_layers), num("layers", m.layers)});
    if (heads_ok) divisible(out, "hidden", m.hidden, "heads", m.heads, "heads", m.hidden);
    if (heads_ok && kv_ok)
        divisible(out, "heads", m.heads, "kv_heads", m.kv_heads, "kv_heads", m.heads);
    const int tp = c.layout.tp, pp = c.layout.pp;
    if (tp < 1 || !heads_ok || !kv_ok) return;
    // The suggested tp splits both kinds of heads and the GPUs of one pipeline stage (of all the
    // GPUs when pp is itself wrong).
    const int gpus = c.layout.gpus;
    const bool pp_fits = pp >= 1 && pp <= m.layers && gpus % pp == 0;
    const int stage_gpus = pp_fits ? gpus / pp : gpus;
    const int fits = std::gcd(std::gcd(m.heads, m.kv_heads), std::max(stage_gpus, 1));
    divisible(out, "heads", m.heads, "tp", tp, "tp", fits);
    divisible(out, "kv_heads", m.kv_heads, "tp", tp, "tp", fits);
    if (layers_ok && pp > m.layers)
        add(out, Msg::pp_over_layers, {num("layers", m.layers), num("pp", pp)});
}

// Narayanan et al. 2021, section 2.2: each GPU holds `chunks` equal layer blocks and
// micro-batches go through the pipeline in groups of pp.
void check_interleaved(Problems& out, const Config& c) {
    const int layers = c.model.layers, pp = c.layout.pp, v = c.training.chunks;
    const int m = c.training.micro_batches;
    if (layers < 1 || pp < 1 || v < 1 || m < 1) return;
    if (layers % (pp * v) != 0) {
        if (layers % pp == 0)
            add(out, Msg::interleaved_chunks,
                {num("layers", layers), num("product", pp * v),
                 num("chunks", nearest_divisor(layers / pp, v))});
        else
            add(out, Msg::interleaved_layers, {num("layers", layers), num("product", pp * v)});
    }
    if (m % pp != 0)
        add(out, Msg::interleaved_micro_batches,
            {num("micro_batches", m), num("pp", pp), num("fit", (m + pp - 1) / pp * pp)});
}

// DeepSeek-V3 report, section 3.2.1: DualPipe feeds micro-batches from both ends of the
// pipeline, half each way, and pairs stage s with stage pp-1-s on one GPU; deepseek-ai/DualPipe
// asserts pp even, micro-batches even and at least 2 pp.
void check_dualpipe(Problems& out, const Config& c) {
    const int pp = c.layout.pp, m = c.training.micro_batches;
    if (pp < 1 || m < 1) return;
    if (pp % 2 != 0) add(out, Msg::dualpipe_pp, {num("pp", pp), num("fit", pp + 1)});
    const int fit = std::max(2 * pp, m + m % 2);
    if (fit != m)
        add(out, Msg::dualpipe_micro_batches,
            {num("micro_batches", m), num("pp", pp), num("fit", fit)});
}

// Expert parallelism folds into data parallelism (Megatron-Core MoE: the expert-parallel group
// is carved out of the data-parallel ranks), and each rank holds experts / ep whole experts.
void check_experts(Problems& out, const Config& c) {
    const int ep = c.layout.ep, experts = c.model.experts, dp = c.layout.dp();
    if (!at_least_one(out, "ep", ep) || ep == 1) return;
    if (experts == 0) {
        if (c.model.name.empty()) return add(out, Msg::ep_no_experts, {num("ep", ep)});
        add(out, Msg::ep_no_experts_named, {num("ep", ep), word("model", c.model.name)});
        return;
    }
    const int fits = std::gcd(experts, std::max(dp, 1));
    if (experts % ep != 0)
        add(out, Msg::ep_experts,
            {num("ep", ep), num("experts", experts), num("fit", nearest_divisor(fits, ep))});
    if (dp >= 1 && dp % ep != 0)
        add(out, Msg::ep_dp, {num("ep", ep), num("dp", dp), num("fit", nearest_divisor(fits, ep))});
}

// Hybrid sharding: ZeRO-3 inside groups that tile the replicas.
void check_shard_group(Problems& out, const Config& c) {
    const Parallel& p = c.layout;
    const int s = p.shard_group, replicas = p.replicas();
    if (s == 0) return;
    const ProblemArg named = num("shard_group", s);
    if (s < 0) return add(out, Msg::shard_group_negative, {named});
    if (p.zero != 3) add(out, Msg::shard_group_zero, {named, num("zero", p.zero)});
    if (p.ep > 1) add(out, Msg::shard_group_ep, {named, num("ep", p.ep)});
    if (replicas >= 1 && replicas % s != 0)
        add(out, Msg::shard_group_replicas,
            {named, num("replicas", replicas), num("fit", nearest_divisor(replicas, s))});
}

// DeepSpeed offloads ZeRO's partitions: the optimizer from stage 1 on (ZeRO-Offload), the
// parameters only with stage 3 (ZeRO-Infinity).
void check_offload(Problems& out, const Config& c) {
    const Offload o = c.layout.offload;
    const int zero = c.layout.zero;
    const ProblemArg named = word("offload", to_string(o));
    if (o == Offload::optimizer && zero < 1) add(out, Msg::offload_zero, {named});
    if (o == Offload::optimizer_params && zero != 3)
        add(out, Msg::offload_params_zero, {named, num("zero", zero)});
    // ZeRO-Offload steps the optimizer on the host with DeepSpeed's CPU kernels, which exist
    // for Adam(W) and Lion (deepspeed/ops/adam/cpu_adam.py, ops/lion/cpu_lion.py); with
    // zero_force_ds_cpu_optimizer (the default) any other optimizer is refused.
    const Optimizer opt = c.training.optimizer;
    if (o != Offload::none && opt != Optimizer::adam && opt != Optimizer::lion)
        add(out, Msg::offload_optimizer, {named, word("optimizer", to_string(opt))});
    if (o != Offload::none && !(c.cluster.gpu.pcie.value > 0))
        add(out, Msg::offload_pcie, {named, word("gpu", c.cluster.gpu.name)});
}

void check_training(Problems& out, const Config& c) {
    const Training& t = c.training;
    at_least_one(out, "seq_len", t.seq_len);
    at_least_one(out, "micro_batch", t.micro_batch);
    at_least_one(out, "micro_batches", t.micro_batches);
    at_least_one(out, "chunks", t.chunks);
    if (t.schedule == Schedule::interleaved) check_interleaved(out, c);
    if (t.schedule == Schedule::dualpipe) check_dualpipe(out, c);
    if (!(t.mfu >= 0 && t.mfu <= 1)) add(out, Msg::mfu_range, {real("mfu", t.mfu)});
    if (!(t.step_time >= 0)) add(out, Msg::step_time_negative);
    if (!(t.capacity_factor > 0))
        add(out, Msg::capacity_factor_positive, {real("capacity_factor", t.capacity_factor)});
}

void positive(Problems& out, Msg m, double v) {
    if (!(v > 0)) add(out, m, {real("value", v)});
}

void check_cluster(Problems& out, const Config& c) {
    positive(out, Msg::nvlink_positive, c.cluster.nvlink.value);
    positive(out, Msg::network_positive, c.cluster.network.value);
    positive(out, Msg::memory_positive, c.cluster.gpu.memory.value);
    positive(out, Msg::throughput_positive, c.cluster.gpu.bf16_dense_tflops);
    at_least_one(out, "gpus_per_node", c.cluster.gpus_per_node);
}

bool last_stage_empty(const Config& c, int pp) {
    return stage_shapes(c.model, pp, StageSplit::compute).back().empty();
}

// nanotron's build_model moves on to the next stage once a block passes the stage's share of the
// cost, and sends the labels to the stage it ends on: when the output layer, the fp32 cast and the
// loss land before the last stage, the labels go to a stage without the loss, and the run fails
// (65 of the 66 runs of the benchmark's 1B on 16 stages; tests/data/measured/).
void check_stage_split(Problems& out, const Config& c) {
    const int pp = c.layout.pp;
    if (c.layout.pipeline_split != StageSplit::compute || pp < 2 || !last_stage_empty(c, pp))
        return;
    int fit = pp - 1;
    while (fit > 1 && (c.layout.gpus % fit != 0 || last_stage_empty(c, fit))) --fit;
    add(out, Msg::stage_split_empty, {num("pp", pp), num("fit", fit)});
}

}  // namespace

std::vector<Problem> problems_of(const Config& c) {
    Problems out;
    check_layout(out, c);
    check_model(out, c);
    check_experts(out, c);
    check_shard_group(out, c);
    check_offload(out, c);
    check_training(out, c);
    check_cluster(out, c);
    if (out.empty()) check_stage_split(out, c);
    return out;
}

std::vector<std::string> validate(const Config& c) {
    std::vector<std::string> out;
    for (const Problem& p : problems_of(c)) out.push_back(english(p));
    return out;
}

std::optional<Problem> global_batch_problem(Config& c, long long sequences) {
    const int dp = c.layout.dp();
    const long long per_micro_batch = 1LL * std::max(dp, 1) * std::max(c.training.micro_batch, 1);
    const long long m = sequences / per_micro_batch;
    if (sequences % per_micro_batch == 0 && m >= 1 && m <= INT32_MAX) {
        c.training.micro_batches = int(m);
        return std::nullopt;
    }
    const long long fit = std::max(m, 1LL) * per_micro_batch;
    return Problem{problem_format(Msg::global_batch_split),
                   {{"sequences", std::to_string(sequences), true},
                    {"dp", std::to_string(dp), true},
                    {"micro_batch", std::to_string(c.training.micro_batch), true},
                    {"fit", std::to_string(fit), true}}};
}

std::optional<std::string> set_global_batch(Config& c, long long sequences) {
    if (auto p = global_batch_problem(c, sequences)) return english(*p);
    return std::nullopt;
}

namespace {
constexpr NameTable<Recompute, 3> kRecomputeNames = {
    {Recompute::none, "none"}, {Recompute::selective, "selective"}, {Recompute::full, "full"}};
constexpr NameTable<Schedule, 6> kScheduleNames = {{Schedule::gpipe, "gpipe"},
                                                   {Schedule::one_f_one_b, "1f1b"},
                                                   {Schedule::interleaved, "interleaved"},
                                                   {Schedule::zb_h1, "zb-h1"},
                                                   {Schedule::zb_h2, "zb-h2"},
                                                   {Schedule::dualpipe, "dualpipe"}};
constexpr NameTable<Overlap, 3> kOverlapNames = {
    {Overlap::none, "none"}, {Overlap::dp, "dp"}, {Overlap::all, "all"}};
constexpr NameTable<GradReduce, 2> kGradReduceNames = {
    {GradReduce::overlapped, "overlapped"}, {GradReduce::after_backward, "after-backward"}};
constexpr NameTable<CrossEntropy, 2> kCrossEntropyNames = {{CrossEntropy::fp32, "fp32"},
                                                           {CrossEntropy::fused, "fused"}};
constexpr NameTable<CpMode, 2> kCpModeNames = {{CpMode::ring, "ring"},
                                               {CpMode::allgather, "allgather"}};
constexpr NameTable<CpSplit, 2> kCpSplitNames = {{CpSplit::naive, "naive"},
                                                 {CpSplit::balanced, "balanced"}};
constexpr NameTable<Offload, 3> kOffloadNames = {{Offload::none, "none"},
                                                 {Offload::optimizer, "optimizer"},
                                                 {Offload::optimizer_params, "optimizer+params"}};
constexpr NameTable<StageSplit, 2> kStageSplitNames = {{StageSplit::layers, "layers"},
                                                       {StageSplit::compute, "compute"}};
}  // namespace

std::string_view to_string(Recompute r) { return name_of(kRecomputeNames, r); }
std::optional<Recompute> parse_recompute(std::string_view s) {
    return value_of(kRecomputeNames, s);
}
std::string_view to_string(Schedule s) { return name_of(kScheduleNames, s); }
std::optional<Schedule> parse_schedule(std::string_view s) { return value_of(kScheduleNames, s); }
std::string_view to_string(Overlap o) { return name_of(kOverlapNames, o); }
std::optional<Overlap> parse_overlap(std::string_view s) { return value_of(kOverlapNames, s); }
std::string_view to_string(GradReduce g) { return name_of(kGradReduceNames, g); }
std::optional<GradReduce> parse_grad_reduce(std::string_view s) {
    return value_of(kGradReduceNames, s);
}
std::string_view to_string(CrossEntropy x) { return name_of(kCrossEntropyNames, x); }
std::optional<CrossEntropy> parse_cross_entropy(std::string_view s) {
    return value_of(kCrossEntropyNames, s);
}
std::string_view to_string(CpMode m) { return name_of(kCpModeNames, m); }
std::optional<CpMode> parse_cp_mode(std::string_view s) { return value_of(kCpModeNames, s); }
std::string_view to_string(CpSplit s) { return name_of(kCpSplitNames, s); }
std::optional<CpSplit> parse_cp_split(std::string_view s) { return value_of(kCpSplitNames, s); }
std::string_view to_string(Offload o) { return name_of(kOffloadNames, o); }
std::optional<Offload> parse_offload(std::string_view s) { return value_of(kOffloadNames, s); }
std::string_view to_string(StageSplit s) { return name_of(kStageSplitNames, s); }
std::optional<StageSplit> parse_stage_split(std::string_view s) {
    return value_of(kStageSplitNames, s);
}

}  // namespace engine
