// `plan`'s answer as text; see plan_json.hpp.
#include "render/inputs/plan_json.hpp"

#include "render/inputs/numbers_json.hpp"
#include "story/storyboard/problems.hpp"
#include "story/storyboard/settings.hpp"
#include "story/text/plain_numbers.hpp"

namespace render {
namespace {

using Json = nlohmann::ordered_json;

Json layout_json(const engine::PlanEntry& e) {
    const engine::Training& t = e.config.training;
    Json j = {{"dp", e.config.layout.dp()},
              {"tp", e.config.layout.tp},
              {"pp", e.config.layout.pp},
              {"cp", e.config.layout.cp},
              {"ep", e.config.layout.ep},
              {"zero", e.config.layout.zero},
              {"shard_group", e.config.layout.shard_group},
              {"recompute", engine::to_string(t.recompute)},
              {"schedule", engine::to_string(t.schedule)},
              {"chunks", t.chunks},
              {"micro_batch", t.micro_batch},
              {"micro_batches", t.micro_batches},
              {"sequence_parallel", t.sequence_parallel}};
    j.update(numbers_json(e.config, e.report, ""));
    return j;
}

// The smallest preset that holds what the leanest layout needs, on the GPU and the host.
const engine::GpuSpec* bigger_gpu(const engine::PerGpu& g) {
    const engine::GpuSpec* bigger = nullptr;
    for (const engine::GpuSpec& gpu : engine::gpu_presets()) {
        if (gpu.memory.value >= g.expected.total.value && gpu.host_memory.value >= g.host.value &&
            (!bigger || gpu.memory.value < bigger->memory.value))
            bigger = &gpu;
    }
    return bigger;
}

// A count as std::to_string writes it (a layout's names group no digits).
engine::ProblemArg count_arg(const char* name, int n) {
    return story::number_arg(name, std::to_string(n));
}

// A layout's degrees, "dp 8 x tp 1 x pp 2" with " x cp C" and ", ep E" when used: code, which no
// language translates (not a message; the page draws it left to right in its digits).
engine::Problem layout_shape(const engine::Parallel& p) {
    static constexpr const char* kShapes[] = {
        "dp {dp} x tp {tp} x pp {pp}", "dp {dp} x tp {tp} x pp {pp} x cp {cp}",
        "dp {dp} x tp {tp} x pp {pp}, ep {ep}", "dp {dp} x tp {tp} x pp {pp} x cp {cp}, ep {ep}"};
    std::vector<engine::ProblemArg> args = {count_arg("dp", p.dp()), count_arg("tp", p.tp),
                                            count_arg("pp", p.pp)};
    if (p.cp > 1) args.push_back(count_arg("cp", p.cp));
    if (p.ep > 1) args.push_back(count_arg("ep", p.ep));
    return {kShapes[int(p.cp > 1) + 2 * int(p.ep > 1)], std::move(args)};
}

// The ZeRO stage as `stage` writes it ("{zero}", or "ZeRO-{zero}"), "in groups of" its shard
// group, then its offload: "ZeRO-3 in groups of 8, offload optimizer".
engine::Problem zero_part(const engine::Parallel& p, const char* stage) {
    engine::Problem zero{stage, {count_arg("zero", p.zero)}};
    if (p.shard_group > 0)
        zero = story::refusal(
            story::Refusal::zero_groups,
            {story::part_arg("zero", std::move(zero)), count_arg("n", p.shard_group)});
    if (p.offload != engine::Offload::none)
        zero = story::refusal(story::Refusal::zero_offload,
                              {story::part_arg("zero", std::move(zero)),
                               story::name_arg("mode", std::string(engine::to_string(p.offload)))});
    return zero;
}

// The nearest layout's name, "dp 8 x tp 1 x pp 2, ZeRO-3, full recompute", as a template the
// page translates (its English is what plan prints).
engine::Problem nearest_name(const engine::Config& c) {
    return story::refusal(
        story::Refusal::layout_name,
        {story::part_arg("shape", layout_shape(c.layout)),
         story::part_arg("zero", zero_part(c.layout, "ZeRO-{zero}")),
         story::name_arg("recompute", std::string(engine::to_string(c.training.recompute)))});
}

}  // namespace

const std::set<std::string>& plan_chosen() {
    static const std::set<std::string> chosen = {"tp",
                                                 "pp",
                                                 "cp",
                                                 "ep",
                                                 "zero",
                                                 "shard_group",
                                                 "offload",
                                                 "micro_batch",
                                                 "micro_batches",
                                                 "schedule",
                                                 "chunks",
                                                 "recompute",
                                                 "sequence_parallel"};
    return chosen;
}

PlanRequest plan_request(const ConfigValues& values, int top) {
    PlanRequest r{story::default_config(), {top, 2048, 0}, {}};
    if (top < 1)
        r.problems.push_back(story::about_flag(
            "--top", story::refusal(story::Refusal::top_text,
                                    {story::number_arg("top", std::to_string(top))})));
    for (engine::Problem& p : config_problems(values, r.base)) r.problems.push_back(std::move(p));
    const auto batch = values.given.find(kGlobalBatchFlag.flag);
    if (batch == values.given.end()) return r;
    const GlobalBatch b = parse_global_batch(batch->second, r.base.training.seq_len);
    if (b.error) r.problems.push_back(story::about_flag(kGlobalBatchFlag.flag, *b.error));
    r.options.global_batch = int(b.sequences);
    return r;
}

Json plan_json(const engine::PlanResult& r) {
    Json out = Json::array();
    for (const engine::PlanEntry& e : r.best) out.push_back(layout_json(e));
    return out;
}

engine::Problem plan_shortfall(const engine::Config& base, const engine::PlanResult& r) {
    using story::name_arg, story::number_arg;
    std::vector<engine::ProblemArg> args = {name_arg("model", base.model.name),
                                            number_arg("gpus", story::plain_int(base.layout.gpus)),
                                            name_arg("gpu", base.cluster.gpu.name)};
    // The sentence for the parts present (problems.hpp: shortfall, shortfall_gpus, then from
    // shortfall_nearest: + 4 with host memory, + 2 with a bigger GPU, + 1 with a GPU count).
    int variant = 0;
    if (r.leanest) {
        const engine::PerGpu& g = r.leanest->report.per_gpu;
        variant = 2;
        args.push_back(story::part_arg("layout", nearest_name(r.leanest->config)));
        args.push_back(number_arg("need", story::plain_bytes(g.expected.total.value)));
        args.push_back(number_arg("capacity", story::plain_bytes(g.capacity.value)));
        if (g.host.value > 0) {
            variant += 4;
            args.push_back(number_arg("host", story::plain_bytes(g.host.value)));
            args.push_back(number_arg("host_capacity", story::plain_bytes(g.host_capacity.value)));
        }
        const engine::GpuSpec* bigger = bigger_gpu(g);
        if (bigger && bigger->name != r.leanest->config.cluster.gpu.name) {
            variant += 2;
            args.push_back(name_arg("bigger", bigger->name));
        }
    }
    if (r.gpus_that_fit > 0) {
        variant += 1;
        args.push_back(number_arg("fit", story::plain_int(r.gpus_that_fit)));
        args.push_back(name_arg("fit_flag", std::to_string(r.gpus_that_fit)));
    }
    return story::refusal(story::Refusal(int(story::Refusal::shortfall) + variant),
                          std::move(args));
}

std::string plan_layout_name(const engine::Config& c) {
    return engine::english(layout_shape(c.layout));
}

std::string plan_zero_name(const engine::Parallel& p) {
    return engine::english(zero_part(p, "{zero}"));
}

}  // namespace render
