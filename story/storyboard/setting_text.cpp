// Settings written back as text; see setting_text.hpp.
#include "story/storyboard/setting_text.hpp"

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>

namespace story {
namespace {

using C = engine::Config;
using Text = std::function<std::string(const C&)>;

// A real number as its shortest text that reads back the same.
std::string real(double v) {
    char buf[32];
    for (int digits = 1; digits <= 17; ++digits) {
        std::snprintf(buf, sizeof buf, "%.*g", digits, v);
        if (std::strtod(buf, nullptr) == v) break;
    }
    return buf;
}

template <auto Part, auto Field>
Text whole() {
    return [](const C& c) { return std::to_string(c.*Part.*Field); };
}
template <auto Part, auto Field>
Text keyword() {
    return [](const C& c) { return std::string(engine::to_string(c.*Part.*Field)); };
}
template <auto Part, auto Field>
Text flag() {
    return [](const C& c) { return std::string(c.*Part.*Field ? "true" : "false"); };
}
template <auto Part, auto Field>
Text ranged() {
    return [](const C& c) { return real(c.*Part.*Field); };
}
template <auto Part, auto Field>
Text bandwidth() {
    return [](const C& c) { return real((c.*Part.*Field).value) + "B/s"; };
}

const std::map<std::string, Text>& texts() {
    using engine::Cluster, engine::Parallel, engine::Training;
    static const std::map<std::string, Text> t{
        {"precision", keyword<&C::training, &Training::precision>()},
        {"grad_dtype", keyword<&C::training, &Training::grad_dtype>()},
        {"grad_accum_dtype", keyword<&C::training, &Training::grad_accum_dtype>()},
        {"grad_reduce", keyword<&C::training, &Training::grad_reduce>()},
        {"cross_entropy", keyword<&C::training, &Training::cross_entropy>()},
        {"tie_embeddings", [](const C& c) { return c.model.tie_embeddings ? "true" : "false"; }},
        {"dropout", [](const C& c) { return c.model.dropout ? "true" : "false"; }},
        {"optimizer", keyword<&C::training, &Training::optimizer>()},
        {"seq_len", whole<&C::training, &Training::seq_len>()},
        {"micro_batch", whole<&C::training, &Training::micro_batch>()},
        {"micro_batches", whole<&C::training, &Training::micro_batches>()},
        {"recompute", keyword<&C::training, &Training::recompute>()},
        {"flash_attention", flag<&C::training, &Training::flash_attention>()},
        {"sequence_parallel", flag<&C::training, &Training::sequence_parallel>()},
        {"schedule", keyword<&C::training, &Training::schedule>()},
        {"chunks", whole<&C::training, &Training::chunks>()},
        {"mfu", ranged<&C::training, &Training::mfu>()},
        {"overlap", keyword<&C::training, &Training::overlap>()},
        {"step_time", ranged<&C::training, &Training::step_time>()},
        {"capacity_factor", ranged<&C::training, &Training::capacity_factor>()},
        {"gpu", [](const C& c) { return c.cluster.gpu.name; }},
        {"gpus_per_node", whole<&C::cluster, &Cluster::gpus_per_node>()},
        {"nodes", whole<&C::cluster, &Cluster::nodes>()},
        {"nvlink", bandwidth<&C::cluster, &Cluster::nvlink>()},
        {"network", bandwidth<&C::cluster, &Cluster::network>()},
        {"gpus", whole<&C::layout, &Parallel::gpus>()},
        {"tp", whole<&C::layout, &Parallel::tp>()},
        {"pp", whole<&C::layout, &Parallel::pp>()},
        {"zero", whole<&C::layout, &Parallel::zero>()},
        {"ep", whole<&C::layout, &Parallel::ep>()},
        {"shard_group", whole<&C::layout, &Parallel::shard_group>()},
        {"offload", keyword<&C::layout, &Parallel::offload>()},
        {"pipeline_split", keyword<&C::layout, &Parallel::pipeline_split>()},
        {"cp", whole<&C::layout, &Parallel::cp>()},
        {"cp_mode", keyword<&C::layout, &Parallel::cp_mode>()},
        {"cp_split", keyword<&C::layout, &Parallel::cp_split>()},
    };
    return t;
}

}  // namespace

std::string setting_text(const engine::Config& c, const std::string& name) {
    const auto it = texts().find(name);
    return it == texts().end() ? "" : it->second(c);
}

}  // namespace story
