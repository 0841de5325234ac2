// Per-GPU memory: model states sharded by ZeRO and split by TP/PP, and activation memory.
#include "engine/memory.hpp"

#include <algorithm>
#include <cmath>

#include "engine/stages.hpp"

namespace engine {

Bytes activation_bytes_per_layer(const ModelSpec& m, const Training& t, int tp, int cp) {
    // Context parallelism (Megatron-Core CP; Liu et al. 2023, ring attention): each rank keeps
    // s/cp tokens of every tensor, and the scores of its s/cp queries against all s keys.
    const double sbh = double(t.seq_len) / cp * t.micro_batch * m.hidden;
    const double sp = t.sequence_parallel ? tp : 1;
    // Korthikanti et al. 2022, section 5: full recompute stores only the layer input, 2sbh,
    // which sequence parallelism splits t ways.
    if (t.recompute == Recompute::full) return Bytes(2 * sbh / sp);
    // Korthikanti eq. 1: 5as/h is the attention scores, softmax and dropout mask; selective
    // recompute (section 5) and FlashAttention (Dao et al. 2022) never keep them.
    const bool keep_scores = t.recompute == Recompute::none && !t.flash_attention;
    const double scores = keep_scores ? 5.0 * m.heads * t.seq_len / (double(m.hidden) * tp) : 0;
    // Korthikanti eq. 2 (TP): 10 of the 34 (norm inputs, dropout masks) stay replicated;
    // eq. 4 (TP + SP): everything is split t ways.
    const double linear = t.sequence_parallel ? 34.0 / tp : 10 + 24.0 / tp;
    return Bytes(sbh * (linear + scores));
}

double in_flight_micro_batches(const Training& t, int pp) { return in_flight_on_stage(t, pp, 0); }

int layers_per_stage(const ModelSpec& m, int pp) { return (m.layers + pp - 1) / pp; }

Bytes activations_held(const Config& c, double micro_batches) {
    return activation_bytes_per_layer(c.model, c.training, c.layout.tp, c.layout.cp) *
           double(layers_per_stage(c.model, c.layout.pp)) * micro_batches;
}

namespace {

// What follows the embedding and the layers: the final norm and an untied output layer; with pp
// stages a tied model's last stage also keeps the embedding's vocab x hidden matrix (Megatron-LM
// and nanotron keep a copy there and sum the two gradients).
double head_params(const ModelSpec& m, int pp) {
    const ParamSplit split = parameter_split(m);
    const double rest = m.params - split.embedding - m.layers * split.per_layer;
    const double scale = m.params / parameter_count(m);
    return rest + (m.tie_embeddings && pp > 1 ? double(m.vocab) * m.hidden * scale : 0);
}

}  // namespace

GpuParams params_on_stage(const ModelSpec& m, const Parallel& p, const StageShape& s) {
    const ParamSplit split = parameter_split(m);
    // Shoeybi et al. 2019: TP splits every weight t ways (norms too: a rounding error here).
    const double all = p.pp == 1
                           ? m.params
                           : s.layers * split.per_layer + (s.embedding ? split.embedding : 0) +
                                 (s.head ? head_params(m, p.pp) : 0);
    if (p.ep == 1) return {all / p.tp, 0};  // the experts replicate as the rest does
    const double routed = s.layers * split.per_layer_routed;
    // Lepikhin et al. 2020 (GShard), section 2.2 and Megatron-Core MoE (expert parallelism): each
    // of the ep ranks holds experts / ep of every MoE layer's routed experts, and everything else
    // whole. Megatron-Core's expert tensor parallelism defaults to tp, so experts split t ways too.
    return {(all - routed) / p.tp, routed / (double(p.tp) * p.ep)};
}

// Stage 0 is the most loaded when pp > 1: the input embedding plus ceil(L/pp) layers.
GpuParams params_on_gpu(const ModelSpec& m, const Parallel& p) {
    const int layers = p.pp == 1 ? m.layers : layers_per_stage(m, p.pp);
    return params_on_stage(m, p, StageShape{layers, true, p.pp == 1});
}

Bytes sharded_from(const GpuParams& params, const Parallel& p, int from, double bytes_per_param) {
    // ZeRO Table 1: stage 1 shards the optimizer over N, stage 2 also gradients, 3 also weights.
    // The experts' states shard over the expert-data-parallel group, dp / ep ranks (Megatron-Core's
    // distributed optimizer keeps a separate expert-data-parallel instance).
    // Hybrid sharding shards over its group instead (Zhao et al. 2023, FSDP, 3.2.2).
    const bool on = p.zero >= from;
    const double dense_shards = on ? p.zero_shards() : 1, expert_shards = on ? p.expert_dp() : 1;
    return Bytes(params.dense * bytes_per_param / dense_shards +
                 params.experts * bytes_per_param / expert_shards);
}

// DeepSeek-V3 report, Table 2: DualPipe keeps two stage copies (stage s and stage p-1-s) on
// each GPU, twice the parameters; counted as twice the most loaded stage.
int stage_copies(const Training& t) { return t.schedule == Schedule::dualpipe ? 2 : 1; }

GpuParams params_held(const Config& c) {
    const GpuParams p = params_on_gpu(c.model, c.layout);
    const int copies = stage_copies(c.training);
    return {p.dense * copies, p.experts * copies};
}

double params_per_gpu(const ModelSpec& m, const Parallel& p) { return params_on_gpu(m, p).total(); }

namespace {

// ZeRO-Offload (Ren et al. 2021, section 4.1): the fp32 master, the optimizer states and the
// gradients the host's optimizer step reads live in host memory; ZeRO-Infinity (Rajbhandari et
// al. 2021) also the 16-bit parameters, fetched a layer at a time (that buffer is not counted).
void move_to_host(Offload o, PerGpu& g) {
    if (o == Offload::none) return;
    g.offloaded.optimizer = g.optimizer;
    g.offloaded.gradients = g.gradients;
    g.optimizer = g.gradients = Bytes(0);
    if (o == Offload::optimizer_params) {
        g.offloaded.weights = g.weights;
        g.weights = Bytes(0);
    }
    g.host = g.offloaded.total();
}

}  // namespace

PerGpu per_gpu_memory(const Config& c) {
    const GpuParams params = params_held(c);
    const BytesPerParam bpp =
        bytes_per_param(c.training.precision, c.training.grad_dtype, c.training.optimizer);
    PerGpu g;
    g.weights = sharded_from(params, c.layout, 3, bpp.weights);
    g.gradients = sharded_from(params, c.layout, 2, bpp.gradients);
    g.optimizer = sharded_from(params, c.layout, 1, bpp.optimizer);
    move_to_host(c.layout.offload, g);
    g.activations = activations_held(c, in_flight_micro_batches(c.training, c.layout.pp));
    g.total = g.weights + g.gradients + g.optimizer + g.activations;
    g.capacity = c.cluster.gpu.memory;
    g.host_capacity = c.cluster.gpu.host_memory;
    g.expected = expected_peak(c);
    g.fits = g.expected.total <= g.capacity && g.host <= g.host_capacity;
    return g;
}

Bytes model_states_bytes(const ModelSpec& m, const Training& t) {
    return Bytes(m.params * bytes_per_param(t.precision, t.grad_dtype, t.optimizer).total());
}

int gpus_to_hold(Bytes states, Bytes gpu_memory) {
    // Whole bytes, so 1.12e12 / 80e9 is exactly 14 rather than 14.000000000000002.
    const auto s = std::llround(states.value), m = std::llround(gpu_memory.value);
    return int((s + m - 1) / m);
}

}  // namespace engine
