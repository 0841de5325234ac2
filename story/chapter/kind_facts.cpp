// The rows and formulas more than one kind shows; see kind_facts.hpp.
#include "story/chapter/kind_facts.hpp"

#include <algorithm>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "story/text/format.hpp"

namespace story {

std::string shown_text(Shown how, double v, const Locale& l) {
    switch (how) {
        case Shown::yes_no:
            return v != 0 ? l.tr("yes") : l.tr("no");
        case Shown::bytes:
            return format_bytes(v, l);
        case Shown::count:
            return format_int(static_cast<long long>(v), l);
        case Shown::percent:
            return format_percent(v, l);
        case Shown::params:
            return format_params(v, l);
        case Shown::per_param:
            return format_bytes_per_param(v, l);
        case Shown::seconds:
            return format_time(v, l);
        default:
            return format_sig3(v, l);
    }
}

Math mi(std::string text) { return {Math::Tag::ident, std::move(text), {}}; }
Math mn(std::string text) { return {Math::Tag::number, std::move(text), {}}; }
Math mo(std::string text) { return {Math::Tag::op, std::move(text), {}}; }
Math frac(Math top, Math bottom) {
    return {Math::Tag::frac, {}, {std::move(top), std::move(bottom)}};
}

Math operator+(Math a, Math b) {
    Math row{Math::Tag::row, {}, {}};
    for (Math* m : {&a, &b}) {
        if (m->tag == Math::Tag::row)
            for (Math& part : m->parts) row.parts.push_back(std::move(part));
        else
            row.parts.push_back(std::move(*m));
    }
    return row;
}

Formula formula(const char* label, Math symbols, Math values, std::string result, const Locale& l) {
    return {l.tr(label), std::move(symbols), std::move(values), std::move(result)};
}

namespace {

// The parallel groups whose traffic a step sends, largest first, as the film names them:
// "tp + dp"; empty when nothing is sent.
std::string traffic_names(const engine::CommPerStep& c) {
    std::vector<std::pair<double, const char*>> sent{{c.dp_per_gpu.value, "dp"},
                                                     {c.tp_per_gpu.value, "tp"},
                                                     {c.pp_per_gpu.value, "pp"},
                                                     {c.ep_per_gpu.value, "ep"},
                                                     {c.cp_per_gpu.value, "cp"}};
    std::ranges::stable_sort(sent, std::greater{}, [](const auto& p) { return p.first; });
    std::string out;
    for (const auto& [bytes, name] : sent)
        if (bytes > 0) out += (out.empty() ? "" : " + ") + std::string(name);
    return out;
}

}  // namespace

std::string comm_detail(const engine::CommPerStep& c, const Locale& l) {
    const std::string time = format_time(c.total().value, l), traffic = traffic_names(c);
    return traffic.empty() ? time
                           : l.tr("{traffic} · {time}", {{"traffic", traffic}, {"time", time}});
}

namespace rows {
using R = const engine::Report&;
const FactRow params{"params", N_("Parameters"), Shown::params, [](R r) { return r.params; }};
const FactRow bytes_per_param{"bytes_per_param.total",
                              N_("Bytes per parameter (weights, gradients, Adam)"),
                              Shown::per_param, [](R r) { return r.bytes_per_param.total(); }};
const FactRow model_states{"model_states_bytes", N_("Model states"), Shown::bytes,
                           [](R r) { return r.model_states.value; }};
const FactRow gpus_to_hold{"gpus_to_hold_model_states", N_("GPUs just to hold them"), Shown::count,
                           [](R r) { return double(r.gpus_to_hold_model_states); }};
const FactRow dp{"layout.dp", N_("Data-parallel replicas"), Shown::count,
                 [](R r) { return double(r.layout.dp()); }};
const FactRow tp{"layout.tp", N_("Tensor-parallel degree"), Shown::count,
                 [](R r) { return double(r.layout.tp); }};
const FactRow pp{"layout.pp", N_("Pipeline stages"), Shown::count,
                 [](R r) { return double(r.layout.pp); }};
const FactRow zero{"layout.zero", N_("ZeRO stage"), Shown::count,
                   [](R r) { return double(r.layout.zero); }};
const FactRow gpus{"layout.gpus", N_("GPUs"), Shown::count,
                   [](R r) { return double(r.layout.gpus); }};
const FactRow weights{"per_gpu.weights_bytes", N_("Weights per GPU"), Shown::bytes,
                      [](R r) { return r.per_gpu.weights.value; }};
const FactRow gradients{"per_gpu.gradients_bytes", N_("Gradients per GPU"), Shown::bytes,
                        [](R r) { return r.per_gpu.gradients.value; }};
const FactRow optimizer{"per_gpu.optimizer_bytes", N_("Optimizer state per GPU"), Shown::bytes,
                        [](R r) { return r.per_gpu.optimizer.value; }};
const FactRow activations{"per_gpu.activations_bytes", N_("Activations per GPU"), Shown::bytes,
                          [](R r) { return r.per_gpu.activations.value; }};
const FactRow memory{"per_gpu.total_bytes", N_("Memory per GPU"), Shown::bytes,
                     [](R r) { return r.per_gpu.total.value; }};
const FactRow fits{"per_gpu.fits", N_("Fits on one GPU"), Shown::yes_no,
                   [](R r) { return r.per_gpu.fits ? 1.0 : 0.0; }};
const FactRow dp_sent{"comm_per_step.dp_bytes_per_gpu", N_("Sent per GPU each step"), Shown::bytes,
                      [](R r) { return r.comm.dp_per_gpu.value; }};
const FactRow tp_sent{"comm_per_step.tp_bytes_per_gpu", N_("Sent per GPU each step"), Shown::bytes,
                      [](R r) { return r.comm.tp_per_gpu.value; }};
const FactRow pp_sent{"comm_per_step.pp_bytes_per_gpu", N_("Sent per GPU each step"), Shown::bytes,
                      [](R r) { return r.comm.pp_per_gpu.value; }};
const FactRow comm_seconds{"comm_per_step.seconds", N_("Communication per step"), Shown::seconds,
                           [](R r) { return r.comm.total().value; }};
const FactRow bubble{"pipeline.bubble_fraction", N_("Idle share of the step (the bubble)"),
                     Shown::percent, [](R r) { return r.bubble_fraction; }};
const FactRow in_flight{"activations.in_flight_micro_batches", N_("Micro-batches in flight"),
                        Shown::number, [](R r) { return r.activations.in_flight_micro_batches; }};
}  // namespace rows

FactRow with_label(FactRow row, const char* label) {
    row.label = label;
    return row;
}

namespace {

const char *const kTimes = "\u00d7", *const kMinus = "\u2212", *const kDot = "\u00b7";

Math k(long long v, const Locale& l) { return mn(format_count(v, l)); }
std::string n(long long v, const Locale& l) { return format_int(v, l); }

// The bubble's numerator, in units of one forward (engine/pipeline.cpp gives the sources): p-1
// (GPipe, 1F1B, interleaved; ZB-H1 once m >= p), 2p-1-m at most (ZB-H2: the warm-up's wait),
// p/2-1 (DualPipe, as the slot model measures it). The symbols and the numbers put in.
std::pair<Math, Math> bubble_numerator(engine::Schedule s, int p, int m, const Locale& l) {
    const Math p_1 = mi("p") + mo(kMinus) + k(1, l);
    switch (s) {
        case engine::Schedule::zb_h1:
            return {p_1, mn(n(std::max(p - 1, 2 * p - 1 - m), l))};
        case engine::Schedule::zb_h2:
            return {mi("max") + mo("(") + k(0, l) + mo(",") + k(2, l) + mi("p") + mo(kMinus) +
                        k(1, l) + mo(kMinus) + mi("m") + mo(")"),
                    mn(n(std::max(0, 2 * p - 1 - m), l))};
        case engine::Schedule::dualpipe:
            return {mi("p") + mo("/") + k(2, l) + mo(kMinus) + k(1, l), mn(n(p / 2 - 1, l))};
        default:
            return {p_1, mn(n(p, l)) + mo(kMinus) + k(1, l)};
    }
}

}  // namespace

namespace formulas {

std::vector<Formula> model_states(const engine::Config&, const engine::Report& r, const Locale& l) {
    const auto& b = r.bytes_per_param;
    return {formula(N_("Model states"), mi("P") + mo(kTimes) + mi("b"),
                    mn(format_params(r.params, l)) + mo(kTimes) + mo("(") +
                        mn(format_sig3(b.weights, l)) + mo("+") + mn(format_sig3(b.gradients, l)) +
                        mo("+") + mn(format_sig3(b.optimizer, l)) + mo(")") + mi("B"),
                    format_bytes(r.model_states.value, l), l)};
}

// Data parallel: 2(N-1)/N x G for the ring, 3(N-1)/N x G with ZeRO-3 (all-gather twice,
// reduce-scatter once); G, the gradients each GPU holds, is what the sum is taken over.
std::vector<Formula> ring(const engine::Config& c, const engine::Report& r, const Locale& l) {
    const int dp = r.layout.dp(), times = c.layout.zero == 3 ? 3 : 2;
    if (dp < 2) return {};
    const double grads = r.comm.dp_per_gpu.value * dp / (times * (dp - 1.0));
    return {
        formula(N_("Sent per GPU"),
                k(times, l) + frac(mi("N") + mo(kMinus) + k(1, l), mi("N")) + mo(kTimes) + mi("G"),
                k(times, l) + frac(mn(n(dp, l)) + mo(kMinus) + k(1, l), mn(n(dp, l))) + mo(kTimes) +
                    mn(format_bytes(grads, l)),
                format_bytes(r.comm.dp_per_gpu.value, l), l)};
}

std::vector<Formula> bubble(const engine::Config& c, const engine::Report& r, const Locale& l) {
    const int p = r.layout.pp, m = c.training.micro_batches, v = c.training.chunks;
    const engine::Schedule s = c.training.schedule;
    const bool interleaved = s == engine::Schedule::interleaved;
    // Whole backwards: m (v m) stage-times of F + 2F; split ones: 3m of F, B and W of one unit.
    const bool split = s == engine::Schedule::zb_h1 || s == engine::Schedule::zb_h2 ||
                       s == engine::Schedule::dualpipe;
    const Math vm = interleaved ? mi("v") + mi("m") : split ? k(3, l) + mi("m") : mi("m");
    const Math vm_n = interleaved ? mn(n(v, l)) + mo(kDot) + mn(n(m, l))
                      : split     ? k(3, l) + mo(kDot) + mn(n(m, l))
                                  : mn(n(m, l));
    const auto [top, top_n] = bubble_numerator(s, p, m, l);
    return {formula(N_("The bubble"), frac(top, vm + mo("+") + top),
                    frac(top_n, vm_n + mo("+") + top_n), format_percent(r.bubble_fraction, l), l)};
}

// Memory per GPU as the sum the card's bar stacks.
std::vector<Formula> memory(const engine::Config&, const engine::Report& r, const Locale& l) {
    const auto& g = r.per_gpu;
    const auto b = [&l](engine::Bytes v) { return mn(format_bytes(v.value, l)); };
    return {formula(N_("Memory per GPU"),
                    mi("W") + mo("+") + mi("G") + mo("+") + mi("O") + mo("+") + mi("A"),
                    b(g.weights) + mo("+") + b(g.gradients) + mo("+") + b(g.optimizer) + mo("+") +
                        b(g.activations),
                    format_bytes(g.total.value, l), l)};
}

std::vector<Formula> replicas(const engine::Config&, const engine::Report& r, const Locale& l) {
    const auto& lay = r.layout;
    return {formula(N_("Data-parallel replicas"), frac(mi("GPUs"), mi("t") + mo(kTimes) + mi("p")),
                    frac(mn(n(lay.gpus, l)), mn(n(lay.tp, l)) + mo(kTimes) + mn(n(lay.pp, l))),
                    n(lay.dp(), l), l)};
}

}  // namespace formulas

}  // namespace story
