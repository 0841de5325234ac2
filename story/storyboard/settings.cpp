// The single mapping from a flat parameter name and its scalar text onto engine::Config, shared
// by `set:` beats and the nested training/cluster/parallel sections of a storyboard.
#include "story/storyboard/settings.hpp"

#include <algorithm>
#include <utility>

#include "story/storyboard/diagnostics.hpp"
#include "story/storyboard/limits.hpp"
#include "story/storyboard/problems.hpp"
#include "story/storyboard/units.hpp"
#include "story/text/locale.hpp"

namespace story {
namespace {

using Error = std::optional<engine::Problem>;
using Apply = Error (*)(engine::Config&, const std::string& key, const std::string& value);
using limits::kMaxGpus;

Error set_int(int& field, const std::string& key, const std::string& value, limits::Bound b) {
    long long v = 0;
    if (auto e = integer_problem(key, value, b.lo, b.hi, v)) return e;
    field = static_cast<int>(v);
    return std::nullopt;
}

template <class T>
Error set_choice(T& field, std::optional<T> parsed, const std::string& value,
                 const limits::Choice& choice) {
    if (!parsed) return unknown_name_problem(std::string(choice.key), value, choice.listed());
    field = *parsed;
    return std::nullopt;
}

Error set_bool(bool& field, const std::string& key, const std::string& value) {
    auto flag = parse_flag(value);
    if (!flag)
        return refusal(Refusal::not_a_flag, {name_arg("name", key), name_arg("value", value)});
    field = *flag;
    return std::nullopt;
}

Error set_bandwidth(engine::BytesPerSecond& field, const std::string& value) {
    auto v = parse_bandwidth(value);
    if (!v) return unit_problem(value, Quantity::bandwidth);
    if (*v <= 0) return refusal(Refusal::bandwidth_positive, {name_arg("value", value)});
    field = engine::BytesPerSecond(*v);
    return std::nullopt;
}

// A real number in its range: a plain number, or a time for a range in seconds (12.5s, 800ms).
Error set_ranged(double& field, const std::string& value, const limits::Range& r) {
    std::optional<double> v;
    if (r.unit == "s") {
        v = value.ends_with('f') ? std::nullopt : parse_time(value, 1);
        if (!v)
            return refusal(Refusal::expected_seconds,
                           {name_arg("name", std::string(r.key)), name_arg("value", value)});
    } else {
        v = parse_count(value);
        if (!v || value.find_first_of("KMBTkmbt") != std::string::npos)
            return refusal(Refusal::not_a_number,
                           {name_arg("name", std::string(r.key)), name_arg("value", value)});
    }
    if (auto e = limits::range_problem(r, *v)) return e;
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
        engine::Problem unknown = unknown_name_problem("model", value, names);
        if (unknown.format == refusal_formats()[int(Refusal::unknown_hint)]) return unknown;
        names.pop_back();  // the count in the template's words
        return refusal(Refusal::unknown_model,
                       {name_arg("value", value), name_arg("options", comma_list(names))});
    }
    if (auto e = params_problem(*count, value)) return e;
    c.model = engine::nominal_model(*count);
    return std::nullopt;
}

// Ties the output layer to the embedding or not. A count the shape implies (a preset, a custom
// shape without params) follows it; a count given (7B) stays, its split rescaled.
Error set_tie(engine::Config& c, const std::string& key, const std::string& value) {
    const bool derived = c.model.params == engine::parameter_count(c.model);
    if (auto e = set_bool(c.model.tie_embeddings, key, value)) return e;
    if (!derived) return std::nullopt;
    c.model.params = engine::parameter_count(c.model);
    return shape_params_problem(c.model.params, std::to_string((long long)c.model.params));
}

// A GPU brings its own links; nvlink/network given alongside it override them afterwards.
Error set_gpu(engine::Config& c, const std::string& value) {
    auto gpu = engine::find_gpu(value);
    if (!gpu) return unknown_name_problem("gpu", value, names_of(engine::gpu_presets()));
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
        return refusal(Refusal::cluster_too_big, {number_arg("product", std::to_string(after)),
                                                  number_arg("max", std::to_string(kMaxGpus))});
    if (c.layout.gpus == before) c.layout.gpus = static_cast<int>(after);
    return std::nullopt;
}

// How a value is read into a field of engine::Config (c.*Part.*Field), the field's bounds or
// keywords found in limits.hpp under the setting's name.
template <auto Part, auto Field>
Error apply_whole(engine::Config& c, const std::string& key, const std::string& value) {
    return set_int(c.*Part.*Field, key, value, *limits::find_whole_number(key));
}
template <auto Part, auto Field, auto Parse>
Error apply_choice(engine::Config& c, const std::string& key, const std::string& value) {
    return set_choice(c.*Part.*Field, Parse(value), value, *limits::find_choice(key));
}
template <auto Part, auto Field>
Error apply_flag(engine::Config& c, const std::string& key, const std::string& value) {
    return set_bool(c.*Part.*Field, key, value);
}
template <auto Part, auto Field>
Error apply_bandwidth(engine::Config& c, const std::string&, const std::string& value) {
    return set_bandwidth(c.*Part.*Field, value);
}
template <auto Part, auto Field>
Error apply_ranged(engine::Config& c, const std::string& key, const std::string& value) {
    return set_ranged(c.*Part.*Field, value, *limits::find_range(key));
}
template <int engine::Cluster::*Field>
Error apply_cluster_size(engine::Config& c, const std::string& key, const std::string& value) {
    return set_cluster_size(c, Field, key, value, *limits::find_whole_number(key));
}

struct Rule {
    SettingType type;
    Apply apply;
};
using C = engine::Config;
using engine::Cluster, engine::Parallel, engine::Training;
template <auto P, auto F>
constexpr Rule whole{SettingType::whole, apply_whole<P, F>};
template <auto P, auto F, auto Parse>
constexpr Rule keyword{SettingType::choice, apply_choice<P, F, Parse>};
template <auto P, auto F>
constexpr Rule flag{SettingType::flag, apply_flag<P, F>};
template <auto P, auto F>
constexpr Rule bandwidth{SettingType::bandwidth, apply_bandwidth<P, F>};
template <auto P, auto F>
constexpr Rule ranged{SettingType::ranged, apply_ranged<P, F>};

SettingSpec row(const char* name, SettingSection section, Rule rule, const char* flag,
                const char* help, std::vector<std::string> tried) {
    return {name, section, rule.type, flag, help, std::move(tried), rule.apply};
}

// Every flat setting, once: its section, how its value is read and applied, its flag in `numbers`
// and `plan` and that flag's help (a message of the catalogue: the calculator shows it in the
// page's language), and values the tests try. In the order the sections apply
// them: a gpu before the nvlink or network beside it (which override its links), the cluster's
// size before gpus (which follows it unless given).
const std::vector<SettingSpec>& table() {
    using S = SettingSection;
    static const std::vector<SettingSpec> rows{
        row("model", S::model,
            {SettingType::model,
             [](C& c, const std::string&, const std::string& v) { return set_model(c, v); }},
            "--model", N_("model preset, e.g. llama-2-7b (default), mixtral-8x7b, deepseek-v3"),
            {"llama-2-13b", "llama-3-8b", "30B"}),
        row("precision", S::training,
            keyword<&C::training, &Training::precision, engine::parse_precision>, "--precision",
            N_("mixed precision recipe"), {"fp8-mixed", "fp32", "bf16-mixed"}),
        row("grad_dtype", S::training,
            keyword<&C::training, &Training::grad_dtype, engine::parse_grad_dtype>, "--grad-dtype",
            N_("gradient accumulation dtype (fp32: as Megatron keeps them)"), {"fp32", "bf16"}),
        row("grad_accum_dtype", S::training,
            keyword<&C::training, &Training::grad_accum_dtype, engine::parse_grad_accum_dtype>,
            "--grad-accum-dtype",
            N_("where gradients accumulate (fp32: a buffer beside bf16 gradients, as nanotron's)"),
            {"fp32", "same"}),
        row("grad_reduce", S::training,
            keyword<&C::training, &Training::grad_reduce, engine::parse_grad_reduce>,
            "--grad-reduce",
            N_("when gradients are reduced: during the last backward, or after it (nanotron's "
               "ZeRO-1)"),
            {"after-backward", "overlapped"}),
        row("tie_embeddings", S::training,
            {SettingType::flag,
             [](C& c, const std::string& k, const std::string& v) { return set_tie(c, k, v); }},
            "--tie-embeddings",
            N_("the output layer is the embedding's matrix: on | off (presets say which models "
               "tie)"),
            {"true", "false"}),
        row("dropout", S::training, flag<&C::model, &engine::ModelSpec::dropout>, "--dropout",
            N_("dropout masks kept for the backward: on | off (GPT-3 on; Llama and MPT off)"),
            {"false", "true"}),
        row("cross_entropy", S::training,
            keyword<&C::training, &Training::cross_entropy, engine::parse_cross_entropy>,
            "--cross-entropy",
            N_("the loss: fp32 (a float copy of the logits, nanotron's) or fused (one kernel on "
               "the 16-bit logits, llm-foundry's)"),
            {"fused", "fp32"}),
        row("optimizer", S::training,
            keyword<&C::training, &Training::optimizer, engine::parse_optimizer>, "--optimizer",
            N_("optimizer, for its state's bytes per parameter"),
            {"adam-8bit", "sgd-momentum", "adam"}),
        row("seq_len", S::training, whole<&C::training, &Training::seq_len>, "--seq",
            N_("sequence length in tokens"), {"2048", "8192"}),
        row("micro_batch", S::training, whole<&C::training, &Training::micro_batch>,
            "--micro-batch", N_("sequences per micro-batch"), {"2", "4"}),
        row("micro_batches", S::training, whole<&C::training, &Training::micro_batches>,
            "--micro-batches", N_("micro-batches per step"), {"4", "16"}),
        row("recompute", S::training,
            keyword<&C::training, &Training::recompute, engine::parse_recompute>, "--recompute",
            N_("activation recomputation"), {"full", "selective", "none"}),
        row("flash_attention", S::training, flag<&C::training, &Training::flash_attention>,
            "--flash-attention", N_("FlashAttention: on | off"), {"false", "true"}),
        row("sequence_parallel", S::training, flag<&C::training, &Training::sequence_parallel>,
            "--sequence-parallel", N_("sequence parallelism with tp: on | off"), {"true", "false"}),
        row("schedule", S::training,
            keyword<&C::training, &Training::schedule, engine::parse_schedule>, "--schedule",
            N_("pipeline schedule"), {"gpipe", "interleaved", "1f1b"}),
        row("chunks", S::training, whole<&C::training, &Training::chunks>, "--chunks",
            N_("virtual stages per GPU (interleaved)"), {"2", "4"}),
        row("mfu", S::training, ranged<&C::training, &Training::mfu>, "--mfu",
            N_("fraction of peak sustained on the GPUs' work, overriding the predicted step time"),
            {"0.3", "0.5"}),
        row("overlap", S::training,
            keyword<&C::training, &Training::overlap, engine::parse_overlap>, "--overlap",
            N_("communication hidden behind compute"), {"all", "dp", "none"}),
        row("step_time", S::training, ranged<&C::training, &Training::step_time>, "--step-time",
            N_("a measured step time (12.5s): report MFU and HFU from it"), {"10s", "20s"}),
        row("capacity_factor", S::training, ranged<&C::training, &Training::capacity_factor>,
            "--capacity-factor", N_("expert capacity over an even share of tokens (1)"),
            {"0.5", "1.25"}),
        row("gpu", S::cluster,
            {SettingType::gpu,
             [](C& c, const std::string&, const std::string& v) { return set_gpu(c, v); }},
            "--gpu", N_("GPU preset"), {"h200-sxm-141gb", "a100-sxm-80gb"}),
        row("gpus_per_node", S::cluster,
            {SettingType::whole, apply_cluster_size<&Cluster::gpus_per_node>}, "--gpus-per-node",
            N_("GPUs per node (NVLink inside, the network between)"), {"4", "8"}),
        row("nodes", S::cluster, {SettingType::whole, apply_cluster_size<&Cluster::nodes>},
            "--nodes", N_("nodes; --gpus follows gpus-per-node x nodes unless given"), {"4", "1"}),
        row("nvlink", S::cluster, bandwidth<&C::cluster, &Cluster::nvlink>, "--nvlink",
            N_("NVLink bandwidth, both directions together (900GB/s)"), {"450GB/s", "600GB/s"}),
        row("network", S::cluster, bandwidth<&C::cluster, &Cluster::network>, "--network",
            N_("network bandwidth per GPU, one direction (400Gb/s, 50GB/s)"),
            {"25GB/s", "100GB/s"}),
        row("gpus", S::parallel, whole<&C::layout, &Parallel::gpus>, "--gpus",
            N_("GPUs in total; data parallel = gpus / (tp x pp x cp)"), {"8", "4", "16"}),
        row("tp", S::parallel, whole<&C::layout, &Parallel::tp>, "--tp",
            N_("tensor-parallel degree"), {"4", "1", "8"}),
        row("pp", S::parallel, whole<&C::layout, &Parallel::pp>, "--pp",
            N_("pipeline-parallel degree"), {"4", "1", "2"}),
        row("zero", S::parallel, whole<&C::layout, &Parallel::zero>, "--zero",
            N_("ZeRO stage 0..3"), {"1", "2", "3", "0"}),
        row("ep", S::parallel, whole<&C::layout, &Parallel::ep>, "--ep",
            N_("expert-parallel degree (divides dp and the experts)"), {"2", "4", "1"}),
        row("shard_group", S::parallel, whole<&C::layout, &Parallel::shard_group>, "--shard-group",
            N_("with --zero 3: shard inside groups of S replicas (hybrid)"), {"2", "0"}),
        row("offload", S::parallel, keyword<&C::layout, &Parallel::offload, engine::parse_offload>,
            "--offload", N_("what ZeRO keeps in host memory"),
            {"optimizer", "optimizer+params", "none"}),
        row("pipeline_split", S::parallel,
            keyword<&C::layout, &Parallel::pipeline_split, engine::parse_stage_split>,
            "--pipeline-split", N_("how layers spread over pipeline stages (compute: nanotron's)"),
            {"compute", "layers"}),
        row("cp", S::parallel, whole<&C::layout, &Parallel::cp>, "--cp",
            N_("context-parallel degree: GPUs per sequence; dp = gpus / (tp x pp x cp)"),
            {"2", "4", "1"}),
        row("cp_mode", S::parallel, keyword<&C::layout, &Parallel::cp_mode, engine::parse_cp_mode>,
            "--cp-mode", N_("how K and V travel between context-parallel ranks"),
            {"ring", "allgather"}),
        row("cp_split", S::parallel,
            keyword<&C::layout, &Parallel::cp_split, engine::parse_cp_split>, "--cp-split",
            N_("which chunks of the sequence a context-parallel rank holds"),
            {"naive", "balanced"}),
    };
    return rows;
}

}  // namespace

const std::vector<SettingSpec>& settings() { return table(); }

const SettingSpec* find_setting(const std::string& name) {
    auto it = std::find_if(table().begin(), table().end(),
                           [&](const SettingSpec& s) { return s.name == name; });
    return it == table().end() ? nullptr : &*it;
}

const char* section_name(SettingSection section) {
    static const char* const kNames[] = {"model", "training", "cluster", "parallel"};
    return kNames[static_cast<int>(section)];
}

std::vector<std::string> section_keys(SettingSection section) {
    std::vector<std::string> keys;
    for (const SettingSpec& s : table())
        if (s.section == section) keys.push_back(s.name);
    return keys;
}

const std::vector<std::string>& setting_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const SettingSpec& s : table()) out.push_back(s.name);
        return out;
    }();
    return names;
}

std::optional<engine::Problem> setting_problem(engine::Config& c, const std::string& key,
                                               const std::string& value) {
    const SettingSpec* setting = find_setting(key);
    if (!setting) return unknown_name_problem("parameter", key, setting_names());
    engine::Config changed = c;  // c stays untouched when the value is rejected
    if (auto e = setting->apply(changed, key, value)) return e;
    c = std::move(changed);
    return std::nullopt;
}

std::optional<SettingType> setting_type(const std::string& name) {
    const SettingSpec* setting = find_setting(name);
    return setting ? std::optional(setting->type) : std::nullopt;
}

std::optional<bool> parse_flag(std::string_view text) {
    if (std::count(std::begin(limits::kTrueWords), std::end(limits::kTrueWords), text) > 0)
        return true;
    if (std::count(std::begin(limits::kFalseWords), std::end(limits::kFalseWords), text) > 0)
        return false;
    return std::nullopt;
}

std::optional<std::string> apply_setting(engine::Config& c, const std::string& key,
                                         const std::string& value) {
    return engine::english(setting_problem(c, key, value));
}

static_assert(limits::kMinParams == 1e6 && limits::kMaxParams == 1e15, "say so in the templates");
std::optional<engine::Problem> params_problem(double count, const std::string& text) {
    if (count >= limits::kMinParams && count <= limits::kMaxParams) return std::nullopt;
    return refusal(Refusal::params_text, {name_arg("value", text)});
}

std::optional<engine::Problem> shape_params_problem(double count, const std::string& count_text) {
    if (count >= limits::kMinParams && count <= limits::kMaxParams) return std::nullopt;
    return refusal(Refusal::params_shape, {number_arg("count", count_text)});
}

engine::Config default_config() {
    engine::Config c;
    apply_setting(c, "model", "llama-2-7b");
    apply_setting(c, "gpu", "h100-sxm-80gb");
    c.layout.gpus = c.cluster.gpus_per_node * c.cluster.nodes;
    return c;
}

}  // namespace story
