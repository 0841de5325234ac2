// The expected peak memory of a GPU, term by term; see peak.hpp. Checked against nanotron's H100
// runs (tests/data/measured/); README's cost-model section lists what it still leaves out.
#include "engine/peak.hpp"

#include <algorithm>

#include "engine/memory.hpp"
#include "engine/stages.hpp"

namespace engine {
namespace {

// The layers of an MoE whose MLP is routed (DeepSeek-V3's first dense_layers are not).
int routed_layers(const ModelSpec& m) { return m.layers - std::clamp(m.dense_layers, 0, m.layers); }

// The MLP width a token's activations go through in the mean layer: ffn for a dense model; with
// experts, its top_k routed and the shared ones in MoE layers, dense_ffn in the leading dense ones.
// The routed experts run over capacity_factor x the tokens' fair share of slots: the all-to-alls
// carry that many (comm.cpp), padded above 1, and below 1 the overflow is dropped.
double mlp_width(const ModelSpec& m, double capacity_factor) {
    if (m.experts == 0) return m.ffn;
    const int routed = routed_layers(m);
    const double moe = (m.top_k * capacity_factor + m.shared_experts) * m.ffn;
    return ((m.layers - routed) * double(m.dense_ffn) + routed * moe) / std::max(m.layers, 1);
}

// Bytes per token an MoE layer keeps for its routing, averaged over the layers as mlp_width is:
// each token's copy per routed expert, which the experts' first projection keeps as its input
// (Megatron-Core's permute before its grouped GEMM), and each routed expert's output, which the
// combine keeps to weight it by the router's probability (unpermute with probs saves its input):
// 2 x 2h x top_k in bf16, in capacity_factor x the fair share of slots as mlp_width. The router's
// scores (experts x 4 bytes) are left out.
double dispatch_kept(const ModelSpec& m, double capacity_factor) {
    if (m.experts == 0) return 0;
    return 4.0 * m.hidden * m.top_k * capacity_factor * routed_layers(m) / std::max(m.layers, 1);
}

// Bytes per token autograd keeps of attention's projections, bf16: Q, K and V as FlashAttention
// takes them (K and V of kv_heads: GQA) and its output, which the output projection keeps.
// Multi-head latent attention (DeepSeek-V3 report, 2.1.1): queries and keys of head_dim + rope_dim
// per head, values and output of v_head_dim.
double attention_kept(const ModelSpec& m) {
    const double h = m.hidden, heads = m.heads;
    if (m.arch == Arch::mla)
        return 2 * heads * (2.0 * (m.mla.head_dim + m.mla.rope_dim) + 2.0 * m.mla.v_head_dim);
    const double kv = heads > 0 ? m.kv_heads * (h / heads) : 0;
    return 2 * h + 4 * kv + 2 * h;
}

// The widest block one micro-batch's activations free, bf16: the MLP's first projection output,
// micro_batch x seq x ffn / tp, twice as wide with SwiGLU, whose gate and up projections run as
// one matmul with one output (nanotron's gate_up_proj, Megatron-LM's linear_fc1 when gated).
double widest_activation(const Config& c) {
    const Training& t = c.training;
    const double gated = c.model.arch == Arch::gpt ? 1 : 2;
    return 2.0 * t.micro_batch * t.seq_len / c.layout.cp * gated *
           mlp_width(c.model, t.capacity_factor) / c.layout.tp;
}

// What one micro-batch's logits and loss hold on the output layer's stage, per value of
// micro_batch x seq x vocab / tp (the vocabulary is split t ways: Megatron-LM's and nanotron's
// vocab-parallel cross entropy). In fp32: the logits in the activation dtype, their fp32 copy (the
// loss is computed in fp32: nanotron's cast_to_fp32, Megatron's logits.float()), and the fp32
// softmax each micro-batch in flight keeps for its backward, where it becomes the logits' gradient
// in place (nanotron's _ShardedCrossEntropy, parallel/tensor_parallel/functional.py). Fused: the
// logits each micro-batch in flight keeps for the kernel's backward, and the gradient it writes
// (flash-attn's CrossEntropyLoss saves its input and allocates the gradient beside it).
Bytes logits_bytes(const Config& c, double in_flight) {
    const Training& t = c.training;
    const double values =
        double(t.micro_batch) * t.seq_len / c.layout.cp * c.model.vocab / c.layout.tp;
    const bool fp32 = t.precision == Precision::fp32;
    const double logit = fp32 ? 4 : 2;
    if (t.cross_entropy == CrossEntropy::fused) return Bytes(values * logit * (in_flight + 1));
    const double transient = fp32 ? 4 : 2 + 4;  // the logits, and their fp32 copy
    return Bytes(values * (transient + 4 * in_flight));
}

// One persistent buffer of the whole sequence, micro_batch x seq x hidden in bf16, into which
// sequence parallelism all-gathers a column-parallel matmul's input (Megatron-LM's
// get_global_memory_buffer, nanotron's MemoryBuffer "allgather").
Bytes tp_gather_bytes(const Config& c) {
    const Training& t = c.training;
    if (c.layout.tp == 1 || !t.sequence_parallel) return Bytes(0);
    return Bytes(2.0 * t.micro_batch * t.seq_len / c.layout.cp * c.model.hidden);
}

// Communication buffers of the data-parallel group.
void add_dp_buffers(const Config& c, const GpuParams& params, const BytesPerParam& bpp,
                    PeakTerms& g) {
    const Parallel& p = c.layout;
    if (p.replicas() == 1) return;
    // PyTorch's DistributedDataParallel copies every gradient into flat buckets it allocates for
    // all of them at construction (gradient_as_bucket_view=False, the default; its documentation:
    // "the saved memory size will be equal to the total gradients size" when set). nanotron wraps
    // its model in DDP at ZeRO-0 when dp > 1 (trainer.py as the benchmark ran it: make_ddp = dp >
    // 1 and not (accumulate_grad_in_fp32 and zero_stage > 0)); its ZeRO-1 then reduces from the
    // fp32 accumulation buffer itself. With 16-bit accumulation nanotron would wrap ZeRO-1 in DDP
    // too; no measured run does, and Megatron-LM's distributed optimizer and DeepSpeed reduce in
    // place, so ZeRO-1 counts no buckets.
    if (p.zero == 0) g.dp_buckets = Bytes(params.total() * bpp.gradients);
    // ZeRO-1: after the step every replica all-gathers the weights the others updated. nanotron's
    // all_gather_coalesced (distributed.py) flattens them into new buffers, one per replica's
    // shard: the stage's whole weights. PyTorch's caching allocator serves a request from a free
    // block it keeps if one is large enough, splitting it (CUDACachingAllocator.cpp), and the
    // backward has just freed every micro-batch's activations: when one replica's buffer is no
    // larger than the widest of them (widest_activation), the buffers take no new memory
    // (counting them anyway left the peak 6-11% high with 64 replicas; bench/measured.sh: the
    // median |error| 7.8% with them, 7.5% without; 7.2% once the widest block is SwiGLU's joint
    // gate and up output rather than one of the two, which moves the 1B's switch from 32
    // replicas to 16, as its runs with two stages measure). Its own shard's flat copy, 1/dp
    // more, is left out: it is allocated first, when the freed blocks can hold it (counting it
    // moved the median |error| from 7.8% to 8.0%).
    if (p.zero == 1) {
        const double per_replica = params.total() * bpp.weights / p.zero_shards();
        if (per_replica > widest_activation(c))
            g.param_gather = Bytes(params.total() * bpp.weights);
    }
    // ZeRO-3 (FSDP, Zhao et al. 2023, 3.3): the layer computing gathered whole, and the next one
    // prefetched.
    if (p.zero == 3) {
        const double layer = parameter_split(c.model).per_layer / p.tp;
        g.param_gather = Bytes(2 * layer * bpp.weights);
    }
}

// Model states on one GPU as the framework holds them: on paper's weights, gradients and
// optimizer, and the fp32 accumulation buffer beside 16-bit gradients, which ZeRO shards as it
// shards the gradients (nanotron's ZeRO-1 keeps it whole: FP32GradientAccumulator's
// grad_buckets_named_params). Offload moves them to the host as on paper.
void add_states(const Config& c, const GpuParams& params, PeakTerms& g) {
    const Training& t = c.training;
    const BytesPerParam bpp = bytes_per_param(t.precision, t.grad_dtype, t.optimizer);
    const Parallel& p = c.layout;
    g.weights = sharded_from(params, p, 3, bpp.weights);
    g.gradients = sharded_from(params, p, 2, bpp.gradients);
    g.optimizer = sharded_from(params, p, 1, bpp.optimizer);
    if (t.grad_accum_dtype == GradAccumDtype::fp32 && bpp.gradients < 4)
        g.grad_accum = sharded_from(params, p, 2, 4);
    if (p.offload != Offload::none) g.gradients = g.optimizer = g.grad_accum = Bytes(0);
    if (p.offload == Offload::optimizer_params) g.weights = Bytes(0);
    add_dp_buffers(c, params, bpp, g);
}

StagePeak stage_peak(const Config& c, const StageShape& shape, const GpuParams& params,
                     double in_flight) {
    StagePeak s{{}, shape.layers, in_flight};
    PeakTerms& g = s.terms;
    add_states(c, params, g);
    g.tp_gather = tp_gather_bytes(c);
    g.activations =
        expected_activation_bytes_per_layer(c.model, c.training, c.layout.tp, c.layout.cp) *
        double(shape.layers) * in_flight;
    if (shape.head) g.logits = logits_bytes(c, in_flight);
    g.reserve = (g.activations + g.logits + g.tp_gather) * kAllocatorReserve;
    g.context = kCudaNcclContext;
    return s;
}

}  // namespace

Bytes PeakTerms::allocator() const {
    return weights + gradients + optimizer + grad_accum + dp_buckets + param_gather + tp_gather +
           activations + logits + reserve;
}

Bytes PeakTerms::total() const { return allocator() + context; }

Bytes expected_activation_bytes_per_layer(const ModelSpec& m, const Training& t, int tp, int cp) {
    // Full recomputation keeps only the layer's input.
    if (t.recompute == Recompute::full) return activation_bytes_per_layer(m, t, tp, cp);
    const double tokens = double(t.seq_len) / cp * t.micro_batch, h = m.hidden;
    // Korthikanti et al.'s method (section 4.1), per token in bf16. Whole on every tensor-parallel
    // rank without sequence parallelism (eq. 2), split with it (eq. 4): the two norms' inputs (4h),
    // the inputs of attention's and the MLP's first projections (2h each) and, with dropout, its
    // two masks after attention's output projection and after the MLP (1 byte each: h each).
    const double masks = m.dropout ? 2 * h : 0;
    // An MoE layer's dispatched copies are tokens as the rank holds them (dispatch_kept).
    const double whole = 4 * h + 2 * h + 2 * h + masks + dispatch_kept(m, t.capacity_factor);
    // Split t ways: attention's Q, K, V and output (attention_kept), and the MLP: GPT's GELU input
    // and output (4h wide, 2 bytes each: Korthikanti's 16h); SwiGLU (Shazeer 2020) as PyTorch runs
    // it (nanotron's GLUActivation, Hugging Face's LlamaMLP): the gate and up projections, SiLU's
    // output and the product the down projection takes, 2 bytes x ffn each.
    const double mlp = (m.arch == Arch::gpt ? 4.0 : 8.0) * mlp_width(m, t.capacity_factor);
    const double split = attention_kept(m) + mlp;
    const double per_token = t.sequence_parallel ? (whole + split) / tp : whole + split / tp;
    // Attention's scores when neither FlashAttention nor recomputation drops them, split over tp
    // (Korthikanti eq. 1's 5as/h): the softmax's output (2 bytes a score) and, with dropout, its
    // mask and output (1 + 2). FlashAttention regenerates its dropout mask in the backward from
    // the generator's state (Dao et al. 2022, section 3.1).
    const bool scores = t.recompute == Recompute::none && !t.flash_attention;
    const double kept_scores = scores ? (m.dropout ? 5.0 : 2.0) * m.heads * t.seq_len / tp : 0;
    return Bytes(tokens * (per_token + kept_scores));
}

ExpectedPeak expected_peak(const Config& c) {
    const Parallel& p = c.layout;
    const std::vector<StageShape> shapes = stage_shapes(c.model, p.pp, p.pipeline_split);
    const int last = head_stage(shapes);
    ExpectedPeak e;
    if (c.training.schedule == Schedule::dualpipe) {
        // DeepSeek-V3 report, 3.2.1: GPU 0 holds stage 0 and stage p-1, and with them the
        // embedding, the output layer and its loss.
        GpuParams both = params_on_stage(c.model, p, shapes.front());
        const GpuParams end = params_on_stage(c.model, p, shapes.back());
        both = {both.dense + end.dense, both.experts + end.experts};
        StageShape gpu0 = shapes.front();
        gpu0.head = true;
        e.first = e.last = stage_peak(c, gpu0, both, in_flight_on_stage(c.training, p.pp, 0));
    } else {
        e.first = stage_peak(c, shapes.front(), params_on_stage(c.model, p, shapes.front()),
                             in_flight_on_stage(c.training, p.pp, 0));
        e.last = stage_peak(c, shapes[last], params_on_stage(c.model, p, shapes[last]),
                            in_flight_on_stage(c.training, p.pp, last));
    }
    e.total = std::max(e.first.terms.total(), e.last.terms.total());
    return e;
}

// The reserve: PyTorch's caching allocator rounds and splits blocks and keeps freed ones cached, so
// what it has reserved at the peak exceeds what is live. Guo et al. 2024 (GMLake, ASPLOS) report
// this fragmentation in LLM training at about 15% of the memory on average (up to 33%); it arises
// from the tensors allocated and freed every micro-batch, so kAllocatorReserve takes 15% of those,
// the model states (allocated once, at start) excluded. Against nanotron's runs
// (tests/data/measured/) it took the median |error| from 10.9% to 7.8% when it was added.
//
// The context, measured: kwen2501 in NVIDIA/nccl#1685 (2025) reports 1.06 GB of GPU memory
// outside PyTorch's allocator per GPU on 8x H100 once the process group is up, before the
// all-to-all that issue is about: the CUDA context (a few hundred MB on its own: PyTorch forum,
// "What is the reason for pytorch's GPU memory floor?") and NCCL's channel buffers (NCCL_BUFFSIZE,
// 4 MiB per channel and peer). More communicators take more (nccl#864: "more communicators = more
// memory", from 1.6 GB for one to 6 GB for three on the reporter's GPUs); kCudaNcclContext is
// the H100 figure, peak.hpp.

}  // namespace engine
