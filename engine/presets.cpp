// Model and GPU presets, compiled in from the published tables in tests/data/reference/
// (models.csv, gpus.csv; presets_test.cpp checks every row), and the parameter count each
// architecture implies.
#include "engine/presets.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/names.hpp"

namespace engine {
namespace {

constexpr NameTable<Arch, 3> kArchNames = {
    {Arch::llama, "llama"}, {Arch::gpt, "gpt"}, {Arch::mla, "mla"}};

ModelSpec preset(const char* name, Arch arch, int layers, int hidden, int heads, int kv_heads,
                 int ffn, int vocab, int context, int experts = 0, int top_k = 0) {
    ModelSpec m{name,     arch, 0,     layers,  hidden,  heads,
                kv_heads, ffn,  vocab, context, experts, top_k};
    m.params = parameter_count(m);
    m.dropout = dropout_of(arch);
    return m;
}

// Token embedding, plus learned positions for GPT-3 (Brown et al. 2020, section 2.1).
double embedding_formula(const ModelSpec& m) {
    const double tokens = double(m.vocab) * m.hidden;
    return m.arch == Arch::gpt ? tokens + double(m.context) * m.hidden : tokens;
}

// Attention with its two RMSNorm weights. Llama (Touvron et al. 2023): q, o are h x h; k, v are
// h x (kv_heads * h/heads) (GQA); no biases. MLA (DeepSeek-V3 report, 2.1.1): queries through a
// q_rank bottleneck (down, norm, up to heads x (head_dim + rope_dim)); keys and values through a
// kv_rank latent plus one shared rope key (down, norm, up to heads x (head_dim + v_head_dim));
// output heads x v_head_dim x h.
double attention_formula(const ModelSpec& m) {
    const double h = m.hidden, heads = m.heads;
    if (m.arch == Arch::mla) {
        const Mla& a = m.mla;
        const double q = h * a.q_rank + a.q_rank + a.q_rank * heads * (a.head_dim + a.rope_dim);
        const double kv = h * (a.kv_rank + a.rope_dim) + a.kv_rank +
                          a.kv_rank * heads * (a.head_dim + a.v_head_dim);
        return q + kv + heads * a.v_head_dim * h + 2 * h;
    }
    const double kv = m.heads > 0 ? double(m.kv_heads) * (m.hidden / m.heads) : 0;
    return 2 * h * h + 2 * h * kv + 2 * h;
}

// One layer; with experts, `mlps` routed ones (all for the count, top_k for what a token uses),
// the shared ones and the router, h x experts (Jiang et al. 2024, Mixtral, section 2; DeepSeek-V3
// report, 2.1.2). SwiGLU's gate, up and down are h x ffn each.
double layer_formula(const ModelSpec& m, int mlps = -1) {
    const double h = m.hidden, f = m.ffn;
    if (m.arch != Arch::gpt) {
        const double attention = attention_formula(m);
        if (m.experts == 0) return attention + 3 * h * f;
        const double routed = mlps < 0 ? m.experts : mlps;
        return attention + (routed + m.shared_experts) * 3 * h * f + h * m.experts;
    }
    // GPT-2/3 block (Radford 2019, Brown 2020): qkv 3h x h + 3h, out h x h + h,
    // MLP h x ffn + ffn and ffn x h + h, two LayerNorms with weight and bias.
    return (3 * h * h + 3 * h) + (h * h + h) + (h * f + f) + (f * h + h) + 2 * (2 * h);
}

// Every layer: the first dense_layers are dense of width dense_ffn, the rest as layer_formula.
double layers_formula(const ModelSpec& m, int mlps = -1) {
    const int dense = std::clamp(m.dense_layers, 0, m.layers);
    const double dense_layer = attention_formula(m) + 3.0 * m.hidden * m.dense_ffn;
    return dense * dense_layer + (m.layers - dense) * layer_formula(m, mlps);
}

// The final norm (RMSNorm h for Llama and DeepSeek, LayerNorm 2h for GPT-3) and the output head,
// vocab x h, unless it is the input embedding's matrix (tied: GPT-3, Llama 3.2 1B and 3B).
double head_formula(const ModelSpec& m) {
    const double h = m.hidden;
    const double norm = m.arch == Arch::gpt ? 2 * h : h;
    return norm + (m.tie_embeddings ? 0 : double(m.vocab) * h);
}

ModelSpec tied(ModelSpec m) {
    m.tie_embeddings = true;
    m.params = parameter_count(m);
    return m;
}

// "1.5B", "70B", "125M": three significant figures, trailing zeros dropped.
std::string count_name(double params) {
    static constexpr struct {
        double scale;
        const char* suffix;
    } kUnits[] = {{1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "K"}, {1, ""}};
    const auto& unit = *std::find_if(std::begin(kUnits), std::end(kUnits) - 1,
                                     [&](const auto& u) { return params >= u.scale; });
    char text[32];
    std::snprintf(text, sizeof text, "%.3g%s", params / unit.scale, unit.suffix);
    return text;
}

// DeepSeek-V3 (DeepSeek-AI 2024, report 4.2): 61 layers, h 7168, 128 heads, the first 3 dense
// (ffn 18,432), then 1 shared and 256 routed experts of width 2,048, 8 routed per token; MLA
// ranks 1,536 (q) and 512 (kv), head 128 + rope 64; vocabulary 129,280. The multi-token
// prediction module (14B more) is not part of the 671B and not counted.
ModelSpec deepseek_v3() {
    ModelSpec m = preset("deepseek-v3", Arch::mla, 61, 7168, 128, 128, 2048, 129280, 4096, 256, 8);
    m.shared_experts = 1;
    m.dense_layers = 3;
    m.dense_ffn = 18432;
    m.mla = {1536, 512, 64, 128, 128};
    m.params = parameter_count(m);
    return m;
}

}  // namespace

std::string_view to_string(Arch a) { return name_of(kArchNames, a); }

std::optional<Arch> parse_arch(std::string_view s) {
    const std::optional<Arch> a = value_of(kArchNames, s);
    return a == Arch::mla ? std::nullopt : a;
}

double parameter_count(const ModelSpec& m) {
    return embedding_formula(m) + layers_formula(m) + head_formula(m);
}

ParamSplit parameter_split(const ModelSpec& m) {
    const double scale = m.params / parameter_count(m);
    const double layers = std::max(m.layers, 1);
    return {embedding_formula(m) * scale, layers_formula(m) / layers * scale,
            layers_formula(m, m.top_k) / layers * scale,
            (layers_formula(m) - layers_formula(m, 0)) / layers * scale};
}

double active_parameter_count(const ModelSpec& m) {
    const ParamSplit s = parameter_split(m);
    return m.params - m.layers * (s.per_layer - s.per_layer_active);
}

const std::vector<ModelSpec>& model_presets() {
    static const std::vector<ModelSpec> presets = {
        preset("llama-2-7b", Arch::llama, 32, 4096, 32, 32, 11008, 32000, 4096),
        preset("llama-2-13b", Arch::llama, 40, 5120, 40, 40, 13824, 32000, 4096),
        preset("llama-2-70b", Arch::llama, 80, 8192, 64, 8, 28672, 32000, 4096),
        preset("llama-3-8b", Arch::llama, 32, 4096, 32, 8, 14336, 128256, 8192),
        preset("llama-3-70b", Arch::llama, 80, 8192, 64, 8, 28672, 128256, 8192),
        preset("llama-3.1-405b", Arch::llama, 126, 16384, 128, 8, 53248, 128256, 8192),
        tied(preset("gpt-3-175b", Arch::gpt, 96, 12288, 96, 96, 49152, 50257, 2048)),
        tied(preset("llama-3.2-1b", Arch::llama, 16, 2048, 32, 8, 8192, 128256, 8192)),
        tied(preset("llama-3.2-3b", Arch::llama, 28, 3072, 24, 8, 8192, 128256, 8192)),
        preset("mixtral-8x7b", Arch::llama, 32, 4096, 32, 8, 14336, 32000, 32768, 8, 2),
        deepseek_v3(),
    };
    return presets;
}

std::optional<ModelSpec> find_model(std::string_view name) {
    for (const ModelSpec& m : model_presets()) {
        if (m.name == name) return m;
    }
    return std::nullopt;
}

ModelSpec nominal_model(double params) {
    // Nearest on a log scale, so 7B and 70B each pick the preset closest in proportion.
    const auto distance = [&](const ModelSpec& m) { return std::abs(std::log(m.params / params)); };
    std::vector<ModelSpec> dense;  // a count names a dense model
    for (const ModelSpec& p : model_presets())
        if (p.experts == 0) dense.push_back(p);
    ModelSpec m = *std::min_element(dense.begin(), dense.end(), [&](const auto& a, const auto& b) {
        return distance(a) < distance(b);
    });
    m.name = count_name(params);
    m.params = params;
    return m;
}

const std::vector<GpuSpec>& gpu_presets() {
    // gpus.csv: NVLink and PCIe count both directions together; the network is one direction
    // per GPU. Dense throughput is half the data sheets' "with sparsity" figure. Host memory is
    // each GPU's share of its DGX system's 2 TB (DGX A100 640 GB, H100, H200, B200 data sheets).
    static const std::vector<GpuSpec> presets = {
        {"h100-sxm-80gb", Bytes(80e9), 989, BytesPerSecond(900e9), BytesPerSecond(50e9), 1979,
         494.5, BytesPerSecond(128e9), Bytes(256e9)},
        {"h200-sxm-141gb", Bytes(141e9), 989, BytesPerSecond(900e9), BytesPerSecond(50e9), 1979,
         494.5, BytesPerSecond(128e9), Bytes(256e9)},
        {"a100-sxm-80gb", Bytes(80e9), 312, BytesPerSecond(600e9), BytesPerSecond(25e9), 0, 156,
         BytesPerSecond(64e9), Bytes(256e9)},
        {"h800-sxm-80gb", Bytes(80e9), 989, BytesPerSecond(400e9), BytesPerSecond(50e9), 1979,
         494.5, BytesPerSecond(128e9), Bytes(256e9)},
        {"b200-sxm-180gb", Bytes(180e9), 2250, BytesPerSecond(1800e9), BytesPerSecond(50e9), 4500,
         1125, BytesPerSecond(128e9), Bytes(256e9)},
    };
    return presets;
}

std::optional<GpuSpec> find_gpu(std::string_view name) {
    for (const GpuSpec& g : gpu_presets()) {
        if (g.name == name) return g;
    }
    return std::nullopt;
}

}  // namespace engine
