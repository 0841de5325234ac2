// The cost model's figures as `numbers --format json` prints them; see numbers_json.hpp.
#include "render/inputs/numbers_json.hpp"

#include <cmath>
#include <cstdint>

#include "story/storyboard/problems.hpp"
#include "story/storyboard/units.hpp"
#include "story/text/locale.hpp"

namespace render {

using story::N_;  // the flags' help: messages of the catalogue (the calculator translates them)
namespace {

using Json = nlohmann::ordered_json;

std::int64_t whole(engine::Bytes b) { return json_bytes(b.value); }

// One stage's expected peak, term by term (engine/peak.hpp).
Json stage_json(const engine::StagePeak& s) {
    const engine::PeakTerms& t = s.terms;
    return {{"layers", s.layers},
            {"in_flight_micro_batches", json_number(s.in_flight)},
            {"weights_bytes", whole(t.weights)},
            {"gradients_bytes", whole(t.gradients)},
            {"grad_accum_bytes", whole(t.grad_accum)},
            {"optimizer_bytes", whole(t.optimizer)},
            {"dp_buckets_bytes", whole(t.dp_buckets)},
            {"param_gather_bytes", whole(t.param_gather)},
            {"tp_gather_bytes", whole(t.tp_gather)},
            {"activations_bytes", whole(t.activations)},
            {"logits_bytes", whole(t.logits)},
            {"reserve_bytes", whole(t.reserve)},
            {"context_bytes", whole(t.context)},
            {"allocator_bytes", whole(t.allocator())},
            {"total_bytes", whole(t.total())}};
}

Json expected_json(const engine::PerGpu& g) {
    return {{"first_stage", stage_json(g.expected.first)},
            {"last_stage", stage_json(g.expected.last)},
            {"total_bytes", whole(g.expected.total)},
            {"capacity_bytes", whole(g.capacity)},
            {"fits", g.fits}};
}

}  // namespace

std::int64_t json_bytes(double bytes) { return std::int64_t(std::floor(bytes)); }

nlohmann::ordered_json json_number(double v) {
    if (v == std::floor(v) && std::fabs(v) < 9e15) return std::int64_t(v);
    return v;
}

nlohmann::ordered_json report_json(const engine::Report& r) {
    const engine::PerGpu& g = r.per_gpu;
    const engine::CommPerStep& comm = r.comm;
    return {
        {"params", json_number(r.params)},
        {"params_active", json_number(std::round(r.params_active))},  // a count: whole
        {"bytes_per_param",
         {{"weights", json_number(r.bytes_per_param.weights)},
          {"gradients", json_number(r.bytes_per_param.gradients)},
          {"optimizer", json_number(r.bytes_per_param.optimizer)},
          {"total", json_number(r.bytes_per_param.total())}}},
        {"model_states_bytes", whole(r.model_states)},
        {"gpus_to_hold_model_states", r.gpus_to_hold_model_states},
        {"layout",
         {{"gpus", r.layout.gpus},
          {"dp", r.layout.dp()},
          {"tp", r.layout.tp},
          {"pp", r.layout.pp},
          {"zero", r.layout.zero},
          {"ep", r.layout.ep},
          {"shard_group", r.layout.shard_group},
          {"cp", r.layout.cp},
          {"cp_mode", engine::to_string(r.layout.cp_mode)}}},
        {"per_gpu",
         {{"weights_bytes", whole(g.weights)},
          {"gradients_bytes", whole(g.gradients)},
          {"optimizer_bytes", whole(g.optimizer)},
          {"activations_bytes", whole(g.activations)},
          {"total_bytes", whole(g.total)},
          {"capacity_bytes", whole(g.capacity)},
          {"fits", g.fits},
          {"host_bytes", whole(g.host)},
          {"host_capacity_bytes", whole(g.host_capacity)}}},
        {"expected_peak", expected_json(g)},
        {"activations",
         {{"per_layer_bytes", whole(r.activations.per_layer)},
          {"layers_per_gpu", r.activations.layers_per_gpu},
          {"in_flight_micro_batches", json_number(r.activations.in_flight_micro_batches)}}},
        {"comm_per_step",
         {{"dp_bytes_per_gpu", whole(comm.dp_per_gpu)},
          {"tp_bytes_per_gpu", whole(comm.tp_per_gpu)},
          {"pp_bytes_per_gpu", whole(comm.pp_per_gpu)},
          {"dp_intra_bytes_per_gpu", whole(comm.dp_intra_per_gpu)},
          {"dp_inter_bytes_per_gpu", whole(comm.dp_inter_per_gpu)},
          {"dp_intra_seconds", comm.dp_intra_time.value},
          {"dp_inter_seconds", comm.dp_inter_time.value},
          {"ep_bytes_per_gpu", whole(comm.ep_per_gpu)},
          {"ep_seconds", comm.ep_time.value},
          {"cp_bytes_per_gpu", whole(comm.cp_per_gpu)},
          {"cp_seconds", comm.cp_time.value},
          {"seconds", comm.total().value}}},
        {"offload",
         {{"mode", engine::to_string(r.layout.offload)},
          {"pcie_bytes_per_step", whole(r.offload.bytes())},
          {"pcie_seconds", r.offload.seconds.value}}},
        {"pipeline", {{"bubble_fraction", r.bubble_fraction}}},
        {"flops",
         {{"per_token", json_number(r.flops.per_token)},
          {"model_per_step", json_number(r.flops.model_per_step)},
          {"hardware_per_step", json_number(r.flops.hardware_per_step)},
          {"executed_per_step", json_number(r.flops.executed_per_step)},
          {"tokens_per_step", json_number(r.flops.tokens_per_step)}}},
        {"step",
         {{"seconds", r.step.seconds},
          {"compute_seconds", r.step.compute_seconds},
          {"exposed_comm_seconds", r.step.exposed_comm_seconds},
          {"measured", r.step.measured()},
          {"source", engine::to_string(r.step.source)},
          {"mfu", r.step.mfu},
          {"hfu", r.step.hfu},
          {"tokens_per_second_per_gpu", r.step.tokens_per_second_per_gpu}}},
    };
}

const FlagSpec kTokensFlag{
    "--tokens", "",
    N_("a whole run's tokens (15T, 300B): its steps, days and GPU-hours from the step time")};

std::optional<engine::Problem> tokens_problem(const std::string& tokens) {
    if (story::parse_count(tokens)) return std::nullopt;
    return story::about_flag(kTokensFlag.flag, story::refusal(story::Refusal::tokens_text,
                                                              {story::name_arg("value", tokens)}));
}

std::optional<engine::RunTotals> run_of(const engine::Report& r, int gpus,
                                        const std::string& tokens) {
    if (tokens.empty()) return std::nullopt;
    return engine::run_totals(r.flops, r.step, gpus, *story::parse_count(tokens));
}

namespace {

// The shape the figures were counted for: a count alone (--params 13B) takes its nearest preset's.
Json model_json(const engine::ModelSpec& m) {
    return {{"name", m.name},
            {"arch", engine::to_string(m.arch)},
            {"layers", m.layers},
            {"hidden", m.hidden},
            {"heads", m.heads},
            {"kv_heads", m.kv_heads},
            {"ffn", m.ffn},
            {"vocab", m.vocab},
            {"experts", m.experts},
            {"top_k", m.top_k},
            {"shared_experts", m.shared_experts},
            {"dense_layers", m.dense_layers},
            {"dense_ffn", m.dense_ffn},
            {"tie_embeddings", m.tie_embeddings},
            {"dropout", m.dropout}};
}

}  // namespace

nlohmann::ordered_json numbers_json(const engine::Config& c, const engine::Report& r,
                                    const std::string& tokens) {
    Json j = {{"model", model_json(c.model)}};
    j.update(report_json(r));
    if (const auto run = run_of(r, c.layout.gpus, tokens))
        j["run"] = {{"tokens", run->tokens},
                    {"steps", run->steps},
                    {"days", run->days},
                    {"gpu_hours", run->gpu_hours}};
    return j;
}

}  // namespace render
