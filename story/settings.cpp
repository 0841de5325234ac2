// The single mapping from a flat parameter name and its scalar text onto engine::Config, shared
// by `set:` beats and the nested training/cluster/parallel sections of a storyboard.
#include "story/settings.hpp"

#include <algorithm>
#include <utility>

#include "story/diagnostics.hpp"
#include "story/limits.hpp"
#include "story/units.hpp"

namespace story {
namespace {

using Error = std::optional<std::string>;
using Apply = Error (*)(engine::Config&, const std::string& key, const std::string& value);
using limits::kMaxGpus;

struct Handler {
    std::string name;
    SettingType type;
    Apply apply;
};

Error set_int(int& field, const std::string& key, const std::string& value, limits::Bound b) {
    long long v = 0;
    if (auto e = integer_in_range(key, value, b.lo, b.hi, v)) return e;
    field = static_cast<int>(v);
    return std::nullopt;
}

template <class T>
Error set_choice(T& field, std::optional<T> parsed, const std::string& value,
                 const limits::Choice& choice) {
    if (!parsed) return unknown_name(std::string(choice.key), value, choice.listed());
    field = *parsed;
    return std::nullopt;
}

Error set_bool(bool& field, const std::string& key, const std::string& value) {
    auto flag = parse_flag(value);
    if (!flag) return "expected true or false for '" + key + "', got '" + value + "'";
    field = *flag;
    return std::nullopt;
}

Error set_bandwidth(engine::BytesPerSecond& field, const std::string& value) {
    auto v = parse_bandwidth(value);
    if (!v) return unit_error(value, Quantity::bandwidth);
    if (*v <= 0) return "bandwidth must be positive, got '" + value + "'";
    field = engine::BytesPerSecond(*v);
    return std::nullopt;
}

// A real number in its range: a plain number, or a time for a range in seconds (12.5s, 800ms).
Error set_ranged(double& field, const std::string& value, const limits::Range& r) {
    std::optional<double> v;
    if (r.unit == "s") {
        v = value.ends_with('f') ? std::nullopt : parse_time(value, 1);
        if (!v)
            return "expected seconds for '" + std::string(r.key) +
                   "' (e.g. 12.5s, 800ms or 12.5), got '" + value + "'";
    } else {
        v = parse_count(value);
        if (!v || value.find_first_of("KMBTkmbt") != std::string::npos)
            return "expected a number for '" + std::string(r.key) + "', got '" + value + "'";
    }
    if (auto e = limits::range_error(r, *v)) return e;
    field = *v;
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
    if (auto e = params_error(*count, "'" + value + "'")) return e;
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
                       const std::string& value, limits::Bound bound) {
    const int before = c.cluster.gpus_per_node * c.cluster.nodes;
    if (auto e = set_int(c.cluster.*field, key, value, bound)) return e;
    const long long after = 1LL * c.cluster.gpus_per_node * c.cluster.nodes;
    if (after > kMaxGpus)
        return "gpus_per_node x nodes = " + std::to_string(after) + " exceeds " +
               std::to_string(kMaxGpus) + " GPUs";
    if (c.layout.gpus == before) c.layout.gpus = static_cast<int>(after);
    return std::nullopt;
}

// Each flat name, the shape of its value, and how it applies; bounds and keywords from limits.
const std::vector<Handler>& handlers() {
    using C = engine::Config;
    using S = const std::string&;
    using T = SettingType;
    using limits::choice, limits::whole_number;
    static const std::vector<Handler> table{
        {"model", T::model, [](C& c, S, S v) { return set_model(c, v); }},
        {"gpu", T::gpu, [](C& c, S, S v) { return set_gpu(c, v); }},
        {"precision", T::choice,
         [](C& c, S, S v) {
             return set_choice(c.training.precision, engine::parse_precision(v), v,
                               choice("precision"));
         }},
        {"grad_dtype", T::choice,
         [](C& c, S, S v) {
             return set_choice(c.training.grad_dtype, engine::parse_grad_dtype(v), v,
                               choice("grad_dtype"));
         }},
        {"optimizer", T::choice,
         [](C& c, S, S v) {
             return set_choice(c.training.optimizer, engine::parse_optimizer(v), v,
                               choice("optimizer"));
         }},
        {"seq_len", T::whole,
         [](C& c, S k, S v) { return set_int(c.training.seq_len, k, v, whole_number("seq_len")); }},
        {"micro_batch", T::whole,
         [](C& c, S k, S v) {
             return set_int(c.training.micro_batch, k, v, whole_number("micro_batch"));
         }},
        {"micro_batches", T::whole,
         [](C& c, S k, S v) {
             return set_int(c.training.micro_batches, k, v, whole_number("micro_batches"));
         }},
        {"recompute", T::choice,
         [](C& c, S, S v) {
             return set_choice(c.training.recompute, engine::parse_recompute(v), v,
                               choice("recompute"));
         }},
        {"flash_attention", T::flag,
         [](C& c, S k, S v) { return set_bool(c.training.flash_attention, k, v); }},
        {"sequence_parallel", T::flag,
         [](C& c, S k, S v) { return set_bool(c.training.sequence_parallel, k, v); }},
        {"schedule", T::choice,
         [](C& c, S, S v) {
             return set_choice(c.training.schedule, engine::parse_schedule(v), v,
                               choice("schedule"));
         }},
        {"chunks", T::whole,
         [](C& c, S k, S v) { return set_int(c.training.chunks, k, v, whole_number("chunks")); }},
        {"mfu", T::ranged,
         [](C& c, S, S v) { return set_ranged(c.training.mfu, v, limits::range("mfu")); }},
        {"overlap", T::choice,
         [](C& c, S, S v) {
             return set_choice(c.training.overlap, engine::parse_overlap(v), v, choice("overlap"));
         }},
        {"step_time", T::ranged,
         [](C& c, S, S v) {
             return set_ranged(c.training.step_time, v, limits::range("step_time"));
         }},
        {"capacity_factor", T::ranged,
         [](C& c, S, S v) {
             return set_ranged(c.training.capacity_factor, v, limits::range("capacity_factor"));
         }},
        {"gpus", T::whole,
         [](C& c, S k, S v) { return set_int(c.layout.gpus, k, v, whole_number("gpus")); }},
        {"tp", T::whole,
         [](C& c, S k, S v) { return set_int(c.layout.tp, k, v, whole_number("tp")); }},
        {"pp", T::whole,
         [](C& c, S k, S v) { return set_int(c.layout.pp, k, v, whole_number("pp")); }},
        {"zero", T::whole,
         [](C& c, S k, S v) { return set_int(c.layout.zero, k, v, whole_number("zero")); }},
        {"ep", T::whole,
         [](C& c, S k, S v) { return set_int(c.layout.ep, k, v, whole_number("ep")); }},
        {"shard_group", T::whole,
         [](C& c, S k, S v) {
             return set_int(c.layout.shard_group, k, v, whole_number("shard_group"));
         }},
        {"offload", T::choice,
         [](C& c, S, S v) {
             return set_choice(c.layout.offload, engine::parse_offload(v), v, choice("offload"));
         }},
        {"cp", T::whole,
         [](C& c, S k, S v) { return set_int(c.layout.cp, k, v, whole_number("cp")); }},
        {"cp_mode", T::choice,
         [](C& c, S, S v) {
             return set_choice(c.layout.cp_mode, engine::parse_cp_mode(v), v, choice("cp_mode"));
         }},
        {"cp_split", T::choice,
         [](C& c, S, S v) {
             return set_choice(c.layout.cp_split, engine::parse_cp_split(v), v, choice("cp_split"));
         }},
        {"gpus_per_node", T::whole,
         [](C& c, S k, S v) {
             return set_cluster_size(c, &engine::Cluster::gpus_per_node, k, v,
                                     whole_number("gpus_per_node"));
         }},
        {"nodes", T::whole,
         [](C& c, S k, S v) {
             return set_cluster_size(c, &engine::Cluster::nodes, k, v, whole_number("nodes"));
         }},
        {"nvlink", T::bandwidth, [](C& c, S, S v) { return set_bandwidth(c.cluster.nvlink, v); }},
        {"network", T::bandwidth, [](C& c, S, S v) { return set_bandwidth(c.cluster.network, v); }},
    };
    return table;
}

const Handler* find_handler(const std::string& name) {
    auto it = std::ranges::find(handlers(), name, &Handler::name);
    return it == handlers().end() ? nullptr : &*it;
}

}  // namespace

const std::vector<std::string>& setting_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const Handler& h : handlers()) out.push_back(h.name);
        return out;
    }();
    return names;
}

std::optional<std::string> apply_setting(engine::Config& c, const std::string& key,
                                         const std::string& value) {
    const Handler* handler = find_handler(key);
    if (!handler) return unknown_name("parameter", key, setting_names());
    engine::Config changed = c;  // c stays untouched when the value is rejected
    if (auto e = handler->apply(changed, key, value)) return e;
    c = std::move(changed);
    return std::nullopt;
}

std::optional<SettingType> setting_type(const std::string& name) {
    const Handler* handler = find_handler(name);
    return handler ? std::optional(handler->type) : std::nullopt;
}

std::optional<bool> parse_flag(std::string_view text) {
    if (std::ranges::count(limits::kTrueWords, text) > 0) return true;
    if (std::ranges::count(limits::kFalseWords, text) > 0) return false;
    return std::nullopt;
}

std::optional<std::string> params_error(double count, const std::string& shown) {
    static_assert(limits::kMinParams == 1e6 && limits::kMaxParams == 1e15, "say so below");
    if (count >= limits::kMinParams && count <= limits::kMaxParams) return std::nullopt;
    return "model size must be between 1M and 1000T parameters, got " + shown;
}

engine::Config default_config() {
    engine::Config c;
    apply_setting(c, "model", "llama-2-7b");
    apply_setting(c, "gpu", "h100-sxm-80gb");
    c.layout.gpus = c.cluster.gpus_per_node * c.cluster.nodes;
    return c;
}

}  // namespace story
