// Each kind's figures and formulas; see facts.hpp.
#include "render/page/facts.hpp"

#include <map>
#include <sstream>

#include "engine/report.hpp"
#include "render/cli/numbers_json.hpp"
#include "story/format.hpp"
#include "story/locale.hpp"

namespace render {
namespace {

using story::N_;
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
         {{"params", N_("Parameters"), Shown::params},
          {"bytes_per_param.total", N_("Bytes per parameter (weights, gradients, Adam)"),
           Shown::per_param},
          {"model_states_bytes", N_("Model states"), Shown::bytes},
          {"gpus_to_hold_model_states", N_("GPUs just to hold them"), Shown::count}}},
        {"ring_allreduce",
         {{"layout.dp", N_("GPUs in the ring"), Shown::count},
          {"comm_per_step.dp_bytes_per_gpu", N_("Sent per GPU each step"), Shown::bytes},
          {"comm_per_step.seconds", N_("Communication per step"), Shown::seconds}}},
        {"zero_stages",
         {{"layout.zero", N_("ZeRO stage"), Shown::count},
          {"per_gpu.weights_bytes", N_("Weights per GPU"), Shown::bytes},
          {"per_gpu.gradients_bytes", N_("Gradients per GPU"), Shown::bytes},
          {"per_gpu.optimizer_bytes", N_("Optimizer state per GPU"), Shown::bytes},
          {"per_gpu.total_bytes", N_("Memory per GPU"), Shown::bytes},
          {"per_gpu.fits", N_("Fits on one GPU"), Shown::yes_no}}},
        {"fsdp_gather",
         {{"layout.dp", N_("Shards"), Shown::count},
          {"per_gpu.total_bytes", N_("Memory per GPU"), Shown::bytes},
          {"comm_per_step.dp_bytes_per_gpu", N_("Sent per GPU each step"), Shown::bytes}}},
        {"tensor_parallel",
         {{"layout.tp", N_("Tensor-parallel degree"), Shown::count},
          {"per_gpu.weights_bytes", N_("Weights per GPU"), Shown::bytes},
          {"comm_per_step.tp_bytes_per_gpu", N_("Sent per GPU each step"), Shown::bytes},
          {"comm_per_step.seconds", N_("Communication per step"), Shown::seconds}}},
        {"pipeline_bubble",
         {{"layout.pp", N_("Pipeline stages"), Shown::count},
          {"pipeline.bubble_fraction", N_("Idle share of the step (the bubble)"), Shown::percent},
          {"activations.in_flight_micro_batches", N_("Micro-batches in flight"), Shown::number},
          {"comm_per_step.pp_bytes_per_gpu", N_("Sent per GPU each step"), Shown::bytes}}},
        {"activation_checkpointing",
         {{"activations.per_layer_bytes", N_("Activations per layer"), Shown::bytes},
          {"activations.layers_per_gpu", N_("Layers per GPU"), Shown::count},
          {"per_gpu.activations_bytes", N_("Activations per GPU"), Shown::bytes},
          {"per_gpu.total_bytes", N_("Memory per GPU"), Shown::bytes}}},
        {"interconnect",
         {{"comm_per_step.dp_bytes_per_gpu", N_("Data parallel, sent per GPU"), Shown::bytes},
          {"comm_per_step.tp_bytes_per_gpu", N_("Tensor parallel, sent per GPU"), Shown::bytes},
          {"comm_per_step.pp_bytes_per_gpu", N_("Pipeline, sent per GPU"), Shown::bytes},
          {"comm_per_step.seconds", N_("Communication per step"), Shown::seconds}}},
        {"layout_3d",
         {{"layout.dp", N_("Data-parallel replicas"), Shown::count},
          {"layout.tp", N_("Tensor-parallel degree"), Shown::count},
          {"layout.pp", N_("Pipeline stages"), Shown::count},
          {"per_gpu.total_bytes", N_("Memory per GPU"), Shown::bytes},
          {"per_gpu.fits", N_("Fits on one GPU"), Shown::yes_no},
          {"pipeline.bubble_fraction", N_("Idle share of the step (the bubble)"), Shown::percent}}},
        {"summary",
         {{"per_gpu.total_bytes", N_("Memory per GPU"), Shown::bytes},
          {"per_gpu.fits", N_("Fits on one GPU"), Shown::yes_no},
          {"comm_per_step.seconds", N_("Communication per step"), Shown::seconds}}},
    };
    return rows;
}

const Json& at_path(const Json& report, const std::string& dotted) {
    const Json* j = &report;
    std::istringstream parts(dotted);
    for (std::string part; std::getline(parts, part, '.');) j = &j->at(part);
    return *j;
}

std::string shown(const Json& v, Shown how, const story::Locale& l) {
    if (how == Shown::yes_no) return v.get<bool>() ? l.tr("yes") : l.tr("no");
    const double x = v.get<double>();
    switch (how) {
        case Shown::bytes:
            return story::format_bytes(x, l);
        case Shown::count:
            return story::format_int(static_cast<long long>(x), l);
        case Shown::percent:
            return story::format_percent(x, l);
        case Shown::params:
            return story::format_params(x, l);
        case Shown::per_param:
            return story::format_bytes_per_param(x, l);
        case Shown::seconds:
            return story::format_time(x, l);
        default:
            return story::format_sig3(x, l);
    }
}

// MathML, built from pieces: <mi>, <mn>, <mo>, <mfrac>.
std::string mi(const std::string& s) { return "<mi>" + s + "</mi>"; }
std::string mn(const std::string& s) { return "<mn>" + s + "</mn>"; }
std::string mo(const std::string& s) { return "<mo>" + s + "</mo>"; }
std::string frac(const std::string& a, const std::string& b) {
    return "<mfrac><mrow>" + a + "</mrow><mrow>" + b + "</mrow></mfrac>";
}

// The formulas of one configuration, their numbers written in the page's locale (a formula's
// own constants too: Arabic's 2(N-1)/N has the same digits as its values).
class Maths {
  public:
    Maths(const engine::Config& c, const engine::Report& r, const story::Locale& l)
        : c_(c), r_(r), l_(l) {}
    std::string of(const std::string& kind) const;

  private:
    std::string n(long long v) const { return story::format_int(v, l_); }
    std::string k(long long v) const { return mn(story::format_count(v, l_)); }
    std::string bytes(double v) const { return story::format_bytes(v, l_); }
    // One formula: what it says in symbols, then with the values in, then the result, a line
    // each (MathML Core does not break lines, and a phone's width holds about 30 characters of
    // it), left to right in every language like the diagrams.
    std::string formula(const char* label, const std::string& symbols, const std::string& values,
                        const std::string& result) const {
        auto line = [](const std::string& row) {
            return "<math display=\"block\" dir=\"ltr\"><mrow>" + row + "</mrow></math>";
        };
        return "<div class=\"formula\"><span class=\"formula-label\">" + l_.tr(label) + "</span>" +
               line(symbols) + line(mo("=") + values) + line(mo("=") + mn(result)) + "</div>";
    }
    std::string bytes_maths() const;
    std::string ring_maths() const;
    std::pair<std::string, std::string> bubble_numerator(engine::Schedule s, int p, int m) const;
    std::string bubble_maths() const;
    std::string memory_maths() const;
    std::string layout_maths() const;

    const engine::Config& c_;
    const engine::Report& r_;
    const story::Locale& l_;
};

std::string Maths::bytes_maths() const {
    const auto& b = r_.bytes_per_param;
    return formula(N_("Model states"), mi("P") + mo("&#215;") + mi("b"),
                   mn(story::format_params(r_.params, l_)) + mo("&#215;") + mo("(") +
                       mn(story::format_sig3(b.weights, l_)) + mo("+") +
                       mn(story::format_sig3(b.gradients, l_)) + mo("+") +
                       mn(story::format_sig3(b.optimizer, l_)) + mo(")") + mi("B"),
                   bytes(r_.model_states.value));
}

// Data parallel: 2(N-1)/N x G for the ring, 3(N-1)/N x G with ZeRO-3 (all-gather twice,
// reduce-scatter once); G, the gradients each GPU holds, is what the sum is taken over.
std::string Maths::ring_maths() const {
    const int dp = r_.layout.dp(), times = c_.layout.zero == 3 ? 3 : 2;
    if (dp < 2) return "";
    const double grads = r_.comm.dp_per_gpu.value * dp / (times * (dp - 1.0));
    return formula(
        N_("Sent per GPU"),
        k(times) + frac(mi("N") + mo("&#8722;") + k(1), mi("N")) + mo("&#215;") + mi("G"),
        k(times) + frac(mn(n(dp)) + mo("&#8722;") + k(1), mn(n(dp))) + mo("&#215;") +
            mn(bytes(grads)),
        bytes(r_.comm.dp_per_gpu.value));
}

// The bubble's numerator, in units of one forward (engine/pipeline.cpp gives the sources): p-1
// (GPipe, 1F1B, interleaved; ZB-H1 once m >= p), 2p-1-m at most (ZB-H2: the warm-up's wait),
// p/2-1 (DualPipe, as the slot model measures it).
// Returns the symbols and the numbers put in.
std::pair<std::string, std::string> Maths::bubble_numerator(engine::Schedule s, int p,
                                                            int m) const {
    const std::string p_1 = mi("p") + mo("&#8722;") + k(1);
    switch (s) {
        case engine::Schedule::zb_h1:
            return {p_1, mn(n(std::max(p - 1, 2 * p - 1 - m)))};
        case engine::Schedule::zb_h2:
            return {mi("max") + mo("(") + k(0) + mo(",") + k(2) + mi("p") + mo("&#8722;") + k(1) +
                        mo("&#8722;") + mi("m") + mo(")"),
                    mn(n(std::max(0, 2 * p - 1 - m)))};
        case engine::Schedule::dualpipe:
            return {mi("p") + mo("/") + k(2) + mo("&#8722;") + k(1), mn(n(p / 2 - 1))};
        default:
            return {p_1, mn(n(p)) + mo("&#8722;") + k(1)};
    }
}

std::string Maths::bubble_maths() const {
    const int p = r_.layout.pp, m = c_.training.micro_batches, v = c_.training.chunks;
    const engine::Schedule s = c_.training.schedule;
    const bool interleaved = s == engine::Schedule::interleaved;
    // Whole backwards: m (v m) stage-times of F + 2F; split ones: 3m of F, B and W of one unit.
    const bool split = s == engine::Schedule::zb_h1 || s == engine::Schedule::zb_h2 ||
                       s == engine::Schedule::dualpipe;
    const std::string vm = interleaved ? mi("v") + mi("m") : split ? k(3) + mi("m") : mi("m");
    const std::string vm_n = interleaved ? mn(n(v)) + mo("&#183;") + mn(n(m))
                             : split     ? k(3) + mo("&#183;") + mn(n(m))
                                         : mn(n(m));
    const auto [top, top_n] = bubble_numerator(s, p, m);
    return formula(N_("The bubble"), frac(top, vm + mo("+") + top),
                   frac(top_n, vm_n + mo("+") + top_n),
                   story::format_percent(r_.bubble_fraction, l_));
}

// Memory per GPU as the sum the card's bar stacks.
std::string Maths::memory_maths() const {
    const auto& g = r_.per_gpu;
    return formula(N_("Memory per GPU"),
                   mi("W") + mo("+") + mi("G") + mo("+") + mi("O") + mo("+") + mi("A"),
                   mn(bytes(g.weights.value)) + mo("+") + mn(bytes(g.gradients.value)) + mo("+") +
                       mn(bytes(g.optimizer.value)) + mo("+") + mn(bytes(g.activations.value)),
                   bytes(g.total.value));
}

std::string Maths::layout_maths() const {
    const auto& lay = r_.layout;
    return formula(N_("Data-parallel replicas"), frac(mi("GPUs"), mi("t") + mo("&#215;") + mi("p")),
                   frac(mn(n(lay.gpus)), mn(n(lay.tp)) + mo("&#215;") + mn(n(lay.pp))),
                   n(lay.dp()));
}

std::string Maths::of(const std::string& kind) const {
    if (kind == "bytes_per_parameter") return bytes_maths();
    if (kind == "ring_allreduce" || kind == "fsdp_gather")
        return ring_maths() + (kind == "fsdp_gather" ? memory_maths() : "");
    if (kind == "pipeline_bubble") return bubble_maths();
    if (kind == "zero_stages" || kind == "activation_checkpointing" || kind == "summary" ||
        kind == "tensor_parallel")
        return memory_maths();
    if (kind == "layout_3d") return layout_maths() + memory_maths();
    if (kind == "interconnect") return ring_maths();
    return "";
}

}  // namespace

std::string param_label(const std::string& key, const story::Locale& locale) {
    static const std::vector<std::pair<std::string, const char*>> names{
        {"micro_batches", N_("Micro-batches")},
        {"micro_batch", N_("Micro-batch size")},
        {"precision", N_("Precision")},
        {"zero", N_("ZeRO stage")},
        {"gpus", N_("GPUs")},
        {"tp", N_("Tensor-parallel degree")},
        {"pp", N_("Pipeline stages")},
        {"seq_len", N_("Sequence length")},
        {"recompute", N_("Recomputation")},
        {"schedule", N_("Schedule")},
        {"chunks", N_("Chunks per GPU")},
        {"model", N_("Model")},
        {"gpu", N_("GPU")},
        {"nodes", N_("Nodes")},
        {"gpus_per_node", N_("GPUs per node")},
        {"grad_dtype", N_("Gradient type")}};
    for (const auto& [k, name] : names)
        if (k == key) return locale.tr(name);
    return key;
}

Facts chapter_facts(const std::string& kind, const engine::Config& config,
                    const story::Locale& locale) {
    const engine::Report report = engine::analyze(config);
    const Json json = report_json(report);
    Facts facts;
    if (auto it = rows_by_kind().find(kind); it != rows_by_kind().end())
        for (const Row& row : it->second) {
            const Json& v = at_path(json, row.key);
            facts.stats.push_back({row.key, locale.tr(row.label), shown(v, row.shown, locale), v});
        }
    facts.maths = Maths(config, report, locale).of(kind);
    return facts;
}

}  // namespace render
