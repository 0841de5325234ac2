// Model and GPU presets (tests/data/reference/models.csv, gpus.csv) and nominal models by count.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/units.hpp"

namespace engine {

// llama: GQA attention and SwiGLU; gpt: GPT-2/3 blocks; mla: DeepSeek-V3's multi-head latent
// attention with SwiGLU (shared plus routed experts, the first dense_layers layers dense).
enum class Arch { llama, gpt, mla };
std::string_view to_string(Arch a);  // "llama", "gpt", "mla"
// A custom shape's blocks: "llama" or "gpt" (mla's attention needs its own shape: a preset only).
std::optional<Arch> parse_arch(std::string_view s);

// Multi-head latent attention's low ranks and head sizes (DeepSeek-AI 2024, V3 report, 4.2).
struct Mla {
    int q_rank = 0, kv_rank = 0, rope_dim = 0, head_dim = 0, v_head_dim = 0;
    bool operator==(const Mla&) const = default;
};

struct ModelSpec {
    std::string name;
    Arch arch = Arch::llama;
    double params = 0;  // parameter count
    int layers = 0, hidden = 0, heads = 0, kv_heads = 0, ffn = 0, vocab = 0, context = 0;
    // Mixture of experts: each layer's MLP is `experts` MLPs of width ffn behind a router, and
    // a token goes through top_k of them. 0 experts: a dense model.
    int experts = 0, top_k = 0;
    // DeepSeek-style MoE: experts every token goes through, and dense leading layers of width
    // dense_ffn; Arch::mla's attention shape.
    int shared_experts = 0, dense_layers = 0, dense_ffn = 0;
    Mla mla;
    // The output layer reuses the input embedding's vocab x hidden matrix (Press and Wolf 2017):
    // GPT-3, Llama 3.2 1B and 3B, Gemma, SmolLM. A pipeline's last stage still holds a copy.
    bool tie_embeddings = false;
    // Dropout after attention's output projection and after the MLP, and on the attention
    // probabilities: its masks are kept for the backward (Korthikanti et al. 2022 count them).
    // GPT-2 and GPT-3 (Megatron-LM's hidden_dropout and attention_dropout of 0.1) train with it;
    // Llama, MPT (llm-foundry's attn_pdrop and resid_pdrop of 0) and most recent models without.
    bool dropout = false;
    bool operator==(const ModelSpec&) const = default;
};

// Peak dense tensor throughput per precision (no 2:4 sparsity): bf16 for mixed precision, fp8
// for fp8-mixed (0: the GPU has no fp8 tensor cores), tf32 for fp32 training. Links count both
// directions together, as data sheets do, except the network (one port's one direction).
struct GpuSpec {
    std::string name;
    Bytes memory;
    double bf16_dense_tflops = 0;
    BytesPerSecond nvlink, network;
    double fp8_dense_tflops = 0, tf32_dense_tflops = 0;
    BytesPerSecond pcie;  // host link, both directions together (x16)
    Bytes host_memory;    // its share of the host's memory, for offload
    bool operator==(const GpuSpec&) const = default;
};

// Whether blocks train with dropout unless told otherwise: GPT's as their papers count them
// (Korthikanti et al.; Megatron-LM's GPT-3 at 0.1), Llama's and MLA's without.
constexpr bool dropout_of(Arch a) { return a == Arch::gpt; }

// Parameters implied by an architecture (embedding, attention with GQA, MLP, norms, and the head
// unless tied to the embedding).
double parameter_count(const ModelSpec& m);

// Where the parameters sit, scaled so the split adds up to m.params (a nominal model keeps its
// preset's proportions): the input side (token embedding, plus learned positions for GPT) and
// one transformer layer (the mean layer where the first dense_layers differ).
struct ParamSplit {
    double embedding = 0, per_layer = 0;
    double per_layer_active = 0;  // what one token's forward pass multiplies (MoE: top_k experts)
    double per_layer_routed = 0;  // the routed experts' share of per_layer (what ep splits)
    bool operator==(const ParamSplit&) const = default;
};
ParamSplit parameter_split(const ModelSpec& m);
// Parameters one token uses (all of them for a dense model): embedding, layers with top_k of
// their experts, head.
double active_parameter_count(const ModelSpec& m);

const std::vector<ModelSpec>& model_presets();  // params computed by parameter_count
std::optional<ModelSpec> find_model(std::string_view name);
// A model given only by its count ("7B"): the shape of the nearest dense preset, params as given.
ModelSpec nominal_model(double params);

const std::vector<GpuSpec>& gpu_presets();
std::optional<GpuSpec> find_gpu(std::string_view name);

}  // namespace engine
