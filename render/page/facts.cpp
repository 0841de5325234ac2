// Each kind's figures and formulas; see facts.hpp.
#include "render/page/facts.hpp"

#include <map>
#include <sstream>

#include "engine/report.hpp"
#include "render/cli/numbers_json.hpp"
#include "story/format.hpp"

namespace render {
namespace {

using Json = nlohmann::ordered_json;

enum class Shown { bytes, count, number, percent, params, per_param, seconds, yes_no };

struct Row {
    const char* key;
    const char* label;
    Shown shown;
};

// The rows of each kind's table: the figures its chapter puts on screen.
const std::map<std::string, std::vector<Row>>& rows_by_kind() {
    static const std::map<std::string, std::vector<Row>> rows{
        {"bytes_per_parameter",
         {{"params", "Parameters", Shown::params},
          {"bytes_per_param.total", "Bytes per parameter (weights, gradients, Adam)",
           Shown::per_param},
          {"model_states_bytes", "Model states", Shown::bytes},
          {"gpus_to_hold_model_states", "GPUs just to hold them", Shown::count}}},
        {"ring_allreduce",
         {{"layout.dp", "GPUs in the ring", Shown::count},
          {"comm_per_step.dp_bytes_per_gpu", "Sent per GPU each step", Shown::bytes},
          {"comm_per_step.seconds", "Communication per step", Shown::seconds}}},
        {"zero_stages",
         {{"layout.zero", "ZeRO stage", Shown::count},
          {"per_gpu.weights_bytes", "Weights per GPU", Shown::bytes},
          {"per_gpu.gradients_bytes", "Gradients per GPU", Shown::bytes},
          {"per_gpu.optimizer_bytes", "Optimizer state per GPU", Shown::bytes},
          {"per_gpu.total_bytes", "Memory per GPU", Shown::bytes},
          {"per_gpu.fits", "Fits on one GPU", Shown::yes_no}}},
        {"fsdp_gather",
         {{"layout.dp", "Shards", Shown::count},
          {"per_gpu.total_bytes", "Memory per GPU", Shown::bytes},
          {"comm_per_step.dp_bytes_per_gpu", "Sent per GPU each step", Shown::bytes}}},
        {"tensor_parallel",
         {{"layout.tp", "Tensor-parallel degree", Shown::count},
          {"per_gpu.weights_bytes", "Weights per GPU", Shown::bytes},
          {"comm_per_step.tp_bytes_per_gpu", "Sent per GPU each step", Shown::bytes},
          {"comm_per_step.seconds", "Communication per step", Shown::seconds}}},
        {"pipeline_bubble",
         {{"layout.pp", "Pipeline stages", Shown::count},
          {"pipeline.bubble_fraction", "Idle share of the step (the bubble)", Shown::percent},
          {"activations.in_flight_micro_batches", "Micro-batches in flight", Shown::number},
          {"comm_per_step.pp_bytes_per_gpu", "Sent per GPU each step", Shown::bytes}}},
        {"activation_checkpointing",
         {{"activations.per_layer_bytes", "Activations per layer", Shown::bytes},
          {"activations.layers_per_gpu", "Layers per GPU", Shown::count},
          {"per_gpu.activations_bytes", "Activations per GPU", Shown::bytes},
          {"per_gpu.total_bytes", "Memory per GPU", Shown::bytes}}},
        {"interconnect",
         {{"comm_per_step.dp_bytes_per_gpu", "Data parallel, sent per GPU", Shown::bytes},
          {"comm_per_step.tp_bytes_per_gpu", "Tensor parallel, sent per GPU", Shown::bytes},
          {"comm_per_step.pp_bytes_per_gpu", "Pipeline, sent per GPU", Shown::bytes},
          {"comm_per_step.seconds", "Communication per step", Shown::seconds}}},
        {"layout_3d",
         {{"layout.dp", "Data-parallel replicas", Shown::count},
          {"layout.tp", "Tensor-parallel degree", Shown::count},
          {"layout.pp", "Pipeline stages", Shown::count},
          {"per_gpu.total_bytes", "Memory per GPU", Shown::bytes},
          {"per_gpu.fits", "Fits on one GPU", Shown::yes_no},
          {"pipeline.bubble_fraction", "Idle share of the step (the bubble)", Shown::percent}}},
        {"summary",
         {{"per_gpu.total_bytes", "Memory per GPU", Shown::bytes},
          {"per_gpu.fits", "Fits on one GPU", Shown::yes_no},
          {"comm_per_step.seconds", "Communication per step", Shown::seconds}}},
    };
    return rows;
}

const Json& at_path(const Json& report, const std::string& dotted) {
    const Json* j = &report;
    std::istringstream parts(dotted);
    for (std::string part; std::getline(parts, part, '.');) j = &j->at(part);
    return *j;
}

std::string shown(const Json& v, Shown how) {
    if (how == Shown::yes_no) return v.get<bool>() ? "yes" : "no";
    const double x = v.get<double>();
    switch (how) {
        case Shown::bytes:
            return story::format_bytes(x);
        case Shown::count:
            return story::format_int(static_cast<long long>(x));
        case Shown::percent:
            return story::format_percent(x);
        case Shown::params:
            return story::format_params(x);
        case Shown::per_param:
            return story::format_bytes_per_param(x);
        case Shown::seconds:
            return story::format_time(x);
        default:
            return story::format_sig3(x);
    }
}

// MathML, built from pieces: <mi>, <mn>, <mo>, <mfrac>.
std::string mi(const std::string& s) { return "<mi>" + s + "</mi>"; }
std::string mn(const std::string& s) { return "<mn>" + s + "</mn>"; }
std::string mo(const std::string& s) { return "<mo>" + s + "</mo>"; }
std::string frac(const std::string& a, const std::string& b) {
    return "<mfrac><mrow>" + a + "</mrow><mrow>" + b + "</mrow></mfrac>";
}
// One formula: what it says in symbols, then with the values in, then the result, a line each
// (MathML Core does not break lines, and a phone's width holds about 30 characters of it).
std::string formula(const std::string& label, const std::string& symbols, const std::string& values,
                    const std::string& result) {
    auto line = [](const std::string& row) {
        return "<math display=\"block\"><mrow>" + row + "</mrow></math>";
    };
    return "<div class=\"formula\"><span class=\"formula-label\">" + label + "</span>" +
           line(symbols) + line(mo("=") + values) + line(mo("=") + mn(result)) + "</div>";
}
std::string n(long long v) { return story::format_int(v); }

std::string bytes_maths(const engine::Config&, const engine::Report& r) {
    const auto& b = r.bytes_per_param;
    return formula("Model states", mi("P") + mo("&#215;") + mi("b"),
                   mn(story::format_params(r.params)) + mo("&#215;") + mo("(") +
                       mn(story::format_sig3(b.weights)) + mo("+") +
                       mn(story::format_sig3(b.gradients)) + mo("+") +
                       mn(story::format_sig3(b.optimizer)) + mo(")") + mi("B"),
                   story::format_bytes(r.model_states.value));
}

// Data parallel: 2(N-1)/N x G for the ring, 3(N-1)/N x G with ZeRO-3 (all-gather twice,
// reduce-scatter once); G, the gradients each GPU holds, is what the sum is taken over.
std::string ring_maths(const engine::Config& c, const engine::Report& r) {
    const int dp = r.layout.dp(), k = c.layout.zero == 3 ? 3 : 2;
    if (dp < 2) return "";
    const double grads = r.comm.dp_per_gpu.value * dp / (k * (dp - 1.0));
    return formula("Sent per GPU",
                   mn(std::to_string(k)) + frac(mi("N") + mo("&#8722;") + mn("1"), mi("N")) +
                       mo("&#215;") + mi("G"),
                   mn(std::to_string(k)) + frac(mn(n(dp)) + mo("&#8722;") + mn("1"), mn(n(dp))) +
                       mo("&#215;") + mn(story::format_bytes(grads)),
                   story::format_bytes(r.comm.dp_per_gpu.value));
}

// The bubble's numerator, in units of one forward (engine/pipeline.cpp gives the sources): p-1
// (GPipe, 1F1B, interleaved; ZB-H1 once m >= p), 2p-1-m at most (ZB-H2: the warm-up's wait),
// p/2-1 (DualPipe, as the slot model measures it).
// Returns the symbols and the numbers put in.
std::pair<std::string, std::string> bubble_numerator(engine::Schedule s, int p, int m) {
    const std::string p_1 = mi("p") + mo("&#8722;") + mn("1");
    switch (s) {
        case engine::Schedule::zb_h1:
            return {p_1, mn(n(std::max(p - 1, 2 * p - 1 - m)))};
        case engine::Schedule::zb_h2:
            return {mi("max") + mo("(") + mn("0") + mo(",") + mn("2") + mi("p") + mo("&#8722;") +
                        mn("1") + mo("&#8722;") + mi("m") + mo(")"),
                    mn(n(std::max(0, 2 * p - 1 - m)))};
        case engine::Schedule::dualpipe:
            return {mi("p") + mo("/") + mn("2") + mo("&#8722;") + mn("1"), mn(n(p / 2 - 1))};
        default:
            return {p_1, mn(n(p)) + mo("&#8722;") + mn("1")};
    }
}

std::string bubble_maths(const engine::Config& c, const engine::Report& r) {
    const int p = r.layout.pp, m = c.training.micro_batches, v = c.training.chunks;
    const engine::Schedule s = c.training.schedule;
    const bool interleaved = s == engine::Schedule::interleaved;
    // Whole backwards: m (v m) stage-times of F + 2F; split ones: 3m of F, B and W of one unit.
    const bool split = s == engine::Schedule::zb_h1 || s == engine::Schedule::zb_h2 ||
                       s == engine::Schedule::dualpipe;
    const std::string vm = interleaved ? mi("v") + mi("m") : split ? mn("3") + mi("m") : mi("m");
    const std::string vm_n = interleaved ? mn(n(v)) + mo("&#183;") + mn(n(m))
                             : split     ? mn("3") + mo("&#183;") + mn(n(m))
                                         : mn(n(m));
    const auto [top, top_n] = bubble_numerator(s, p, m);
    return formula("The bubble", frac(top, vm + mo("+") + top), frac(top_n, vm_n + mo("+") + top_n),
                   story::format_percent(r.bubble_fraction));
}

// Memory per GPU as the sum the card's bar stacks.
std::string memory_maths(const engine::Config&, const engine::Report& r) {
    const auto& g = r.per_gpu;
    return formula("Memory per GPU",
                   mi("W") + mo("+") + mi("G") + mo("+") + mi("O") + mo("+") + mi("A"),
                   mn(story::format_bytes(g.weights.value)) + mo("+") +
                       mn(story::format_bytes(g.gradients.value)) + mo("+") +
                       mn(story::format_bytes(g.optimizer.value)) + mo("+") +
                       mn(story::format_bytes(g.activations.value)),
                   story::format_bytes(g.total.value));
}

std::string layout_maths(const engine::Config&, const engine::Report& r) {
    const auto& l = r.layout;
    return formula("Data-parallel replicas", frac(mi("GPUs"), mi("t") + mo("&#215;") + mi("p")),
                   frac(mn(n(l.gpus)), mn(n(l.tp)) + mo("&#215;") + mn(n(l.pp))), n(l.dp()));
}

std::string maths(const std::string& kind, const engine::Config& c, const engine::Report& r) {
    if (kind == "bytes_per_parameter") return bytes_maths(c, r);
    if (kind == "ring_allreduce" || kind == "fsdp_gather")
        return ring_maths(c, r) + (kind == "fsdp_gather" ? memory_maths(c, r) : "");
    if (kind == "pipeline_bubble") return bubble_maths(c, r);
    if (kind == "zero_stages" || kind == "activation_checkpointing" || kind == "summary" ||
        kind == "tensor_parallel")
        return memory_maths(c, r);
    if (kind == "layout_3d") return layout_maths(c, r) + memory_maths(c, r);
    if (kind == "interconnect") return ring_maths(c, r);
    return "";
}

}  // namespace

Facts chapter_facts(const std::string& kind, const engine::Config& config) {
    const engine::Report report = engine::analyze(config);
    const Json json = report_json(report);
    Facts facts;
    if (auto it = rows_by_kind().find(kind); it != rows_by_kind().end())
        for (const Row& row : it->second) {
            const Json& v = at_path(json, row.key);
            facts.stats.push_back({row.key, row.label, shown(v, row.shown), v});
        }
    facts.maths = maths(kind, config, report);
    return facts;
}

}  // namespace render
