// The single mapping from a flat parameter name and its scalar text onto engine::Config, shared
// by `set:` beats and the nested training/cluster/parallel sections of a storyboard.
#include "story/settings.hpp"

#include <algorithm>
#include <utility>

#include "story/diagnostics.hpp"
#include "story/units.hpp"

namespace story {
namespace {

using Error = std::optional<std::string>;
using Apply = Error (*)(engine::Config&, const std::string& key, const std::string& value);

constexpr long long kMaxGpus = 65536;

Error set_int(int& field, const std::string& key, const std::string& value, long long lo,
              long long hi) {
    long long v = 0;
    if (auto e = integer_in_range(key, value, lo, hi, v)) return e;
    field = static_cast<int>(v);
    return std::nullopt;
}

template <class T>
Error set_choice(T& field, std::optional<T> parsed, const std::string& what,
                 const std::string& value, const std::vector<std::string>& options) {
    if (!parsed) return unknown_name(what, value, options);
    field = *parsed;
    return std::nullopt;
}

Error set_bool(bool& field, const std::string& key, const std::string& value) {
    static const std::vector<std::string> yes{"true", "yes", "on"}, no{"false", "no", "off"};
    bool is_yes = std::ranges::count(yes, value) > 0, is_no = std::ranges::count(no, value) > 0;
    if (!is_yes && !is_no) return "expected true or false for '" + key + "', got '" + value + "'";
    field = is_yes;
    return std::nullopt;
}

Error set_bandwidth(engine::BytesPerSecond& field, const std::string& value) {
    auto v = parse_bandwidth(value);
    if (!v) return unit_error(value, Quantity::bandwidth);
    if (*v <= 0) return "bandwidth must be positive, got '" + value + "'";
    field = engine::BytesPerSecond(*v);
    return std::nullopt;
}

template <class Spec>
std::vector<std::string> names_of(const std::vector<Spec>& presets) {
    std::vector<std::string> names;
    for (const Spec& p : presets) names.push_back(p.name);
    return names;
}

Error set_model(engine::Config& c, const std::string& value) {
    if (auto preset = engine::find_model(value)) {
        c.model = *preset;
        return std::nullopt;
    }
    auto count = parse_count(value);
    if (!count) {
        auto names = names_of(engine::model_presets());
        names.push_back("a parameter count such as 7B");
        return unknown_name("model", value, names);
    }
    if (*count < 1e6 || *count > 1e15)
        return "model size must be between 1M and 1000T parameters, got '" + value + "'";
    c.model = engine::nominal_model(*count);
    return std::nullopt;
}

// A GPU brings its own links; nvlink/network given alongside it override them afterwards.
Error set_gpu(engine::Config& c, const std::string& value) {
    auto gpu = engine::find_gpu(value);
    if (!gpu) return unknown_name("gpu", value, names_of(engine::gpu_presets()));
    c.cluster.gpu = *gpu;
    c.cluster.nvlink = gpu->nvlink;
    c.cluster.network = gpu->network;
    return std::nullopt;
}

// `gpus` follows the cluster size for as long as it equals gpus_per_node x nodes, so a chapter
// that adds nodes uses them unless it also says otherwise.
Error set_cluster_size(engine::Config& c, int engine::Cluster::*field, const std::string& key,
                       const std::string& value) {
    const int before = c.cluster.gpus_per_node * c.cluster.nodes;
    if (auto e = set_int(c.cluster.*field, key, value, 1, kMaxGpus)) return e;
    const long long after = 1LL * c.cluster.gpus_per_node * c.cluster.nodes;
    if (after > kMaxGpus)
        return "gpus_per_node x nodes = " + std::to_string(after) + " exceeds " +
               std::to_string(kMaxGpus) + " GPUs";
    if (c.layout.gpus == before) c.layout.gpus = static_cast<int>(after);
    return std::nullopt;
}

const std::vector<std::pair<std::string, Apply>>& handlers() {
    using C = engine::Config;
    using S = const std::string&;
    static const std::vector<std::pair<std::string, Apply>> table{
        {"model", [](C& c, S, S v) { return set_model(c, v); }},
        {"gpu", [](C& c, S, S v) { return set_gpu(c, v); }},
        {"precision",
         [](C& c, S, S v) {
             return set_choice(c.training.precision, engine::parse_precision(v), "precision", v,
                               {"fp32", "bf16-mixed", "fp8-mixed"});
         }},
        {"grad_dtype",
         [](C& c, S, S v) {
             return set_choice(c.training.grad_dtype, engine::parse_grad_dtype(v), "grad_dtype", v,
                               {"bf16", "fp32"});
         }},
        {"seq_len", [](C& c, S k, S v) { return set_int(c.training.seq_len, k, v, 1, 1 << 20); }},
        {"micro_batch",
         [](C& c, S k, S v) { return set_int(c.training.micro_batch, k, v, 1, 65536); }},
        {"micro_batches",
         [](C& c, S k, S v) { return set_int(c.training.micro_batches, k, v, 1, 4096); }},
        {"recompute",
         [](C& c, S, S v) {
             return set_choice(c.training.recompute, engine::parse_recompute(v), "recompute", v,
                               {"none", "selective", "full"});
         }},
        {"flash_attention",
         [](C& c, S k, S v) { return set_bool(c.training.flash_attention, k, v); }},
        {"sequence_parallel",
         [](C& c, S k, S v) { return set_bool(c.training.sequence_parallel, k, v); }},
        {"schedule",
         [](C& c, S, S v) {
             return set_choice(c.training.schedule, engine::parse_schedule(v), "schedule", v,
                               {"gpipe", "1f1b", "interleaved"});
         }},
        {"chunks", [](C& c, S k, S v) { return set_int(c.training.chunks, k, v, 1, 64); }},
        {"gpus", [](C& c, S k, S v) { return set_int(c.layout.gpus, k, v, 1, kMaxGpus); }},
        {"tp", [](C& c, S k, S v) { return set_int(c.layout.tp, k, v, 1, kMaxGpus); }},
        {"pp", [](C& c, S k, S v) { return set_int(c.layout.pp, k, v, 1, kMaxGpus); }},
        {"zero", [](C& c, S k, S v) { return set_int(c.layout.zero, k, v, 0, 3); }},
        {"gpus_per_node",
         [](C& c, S k, S v) { return set_cluster_size(c, &engine::Cluster::gpus_per_node, k, v); }},
        {"nodes",
         [](C& c, S k, S v) { return set_cluster_size(c, &engine::Cluster::nodes, k, v); }},
        {"nvlink", [](C& c, S, S v) { return set_bandwidth(c.cluster.nvlink, v); }},
        {"network", [](C& c, S, S v) { return set_bandwidth(c.cluster.network, v); }},
    };
    return table;
}

}  // namespace

const std::vector<std::string>& setting_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const auto& [name, apply] : handlers()) out.push_back(name);
        return out;
    }();
    return names;
}

std::optional<std::string> apply_setting(engine::Config& c, const std::string& key,
                                         const std::string& value) {
    auto it = std::ranges::find(handlers(), key, &std::pair<std::string, Apply>::first);
    if (it == handlers().end()) return unknown_name("parameter", key, setting_names());
    engine::Config changed = c;  // c stays untouched when the value is rejected
    if (auto e = it->second(changed, key, value)) return e;
    c = std::move(changed);
    return std::nullopt;
}

engine::Config default_config() {
    engine::Config c;
    apply_setting(c, "model", "llama-2-7b");
    apply_setting(c, "gpu", "h100-sxm-80gb");
    c.layout.gpus = c.cluster.gpus_per_node * c.cluster.nodes;
    return c;
}

}  // namespace story
