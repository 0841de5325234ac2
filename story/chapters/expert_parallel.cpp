// `expert_parallel`: a mixture-of-experts layer spread over GPUs. A row of GPU cards, each
// holding experts / ep of the model's routed experts; a few tokens above each card, sent by the
// gate to their top-k experts (on their own card when ep = 1, across the ep group otherwise) and
// back: the all-to-all dispatch and combine, drawn as the many-to-many traffic it is between the
// cards of each ep group, with the engine's bytes per GPU per step and their time; the model's
// total against its active parameters per token. `set: {ep: k}` morphs the experts per card.
#include <algorithm>
#include <cmath>
#include <optional>

#include "engine/comm.hpp"
#include "engine/memory.hpp"
#include "story/chapter/chapter_base.hpp"
#include "story/draw/draw.hpp"
#include "story/text/format.hpp"
#include "story/text/lang.hpp"
#include "story/vocab/cluster_vocab.hpp"

namespace story {

namespace {

constexpr double kDefaultDuration = 30;
constexpr int kMaxCards = 8, kMaxExpertsPerCard = 16;
// Choreography, in seconds of the default duration.
// The gate's line enters after the tokens, on its own phase, before they travel.
constexpr double kCardsAt = 0.3, kTokensAt = 1.5, kGateAt = 2.2, kRouteAt = 3.0, kTrafficAt = 3.0;
constexpr double kParamsAt = 1.0, kReadoutAt = 4.0;
// One round trip of the drawn tokens (s, not scaled): out to the experts, a pause, back.
constexpr double kTrip = 4.0, kOutShare = 0.35, kStayShare = 0.25;
constexpr int kTokensPerCard = 2;
constexpr double kDroppedStroke = 2.5;

// The row of cards, the tokens above it, the traffic arcs under it, the read-outs at the bottom.
constexpr Box kCards{frame::kLeft, 352, frame::kRight - frame::kLeft, 220};
constexpr double kCardGap = 24, kMaxCardW = 196;
constexpr double kTokenY = 306, kToken = 22, kTokenGap = 10;
// An expert box: its name in the top band, tokens landing under it.
constexpr double kLabelBand = 34, kLandPad = 4;
constexpr double kGateBaseline = 280;
constexpr double kArcTop = 582, kArcDepth = 100, kMinDepth = 36, kArcStep = 0.05;
constexpr double kTrafficWidth = 3, kFanInset = 0.12;
constexpr double kExpertTop = 52, kExpertPad = 12, kExpertGap = 6;
constexpr double kBufferDrop = 58;  // under the figures, apart from them
constexpr double kReadoutTop = 724, kReadoutX = 1000, kActiveX = 440;

const TextStyle kExpertStyle = tabular(weighted(style_of(Role::small), Weight::semibold));

// The drawn tokens' routing only illustrates what a gate does: token i goes to top_k distinct
// experts picked by a fixed hash of i. Every number on screen comes from the engine.
int routed_expert(int token, int k, int experts) {
    const unsigned h = static_cast<unsigned>(token) * 2654435761u;
    return static_cast<int>((h >> 7) % static_cast<unsigned>(experts) + k) % experts;
}

// The experts GPU g holds: a contiguous share of experts / ep, by its rank in its ep group.
int first_expert(int gpu, int ep, int experts) { return (gpu % ep) * (experts / ep); }
int holder(int gpu, int expert, int ep, int experts) {
    return (gpu / ep) * ep + expert / (experts / ep);
}

// Copy j (of top_k) of GPU g's token `slot`, in the order the drawn copies are counted.
int copy_index(int g, int slot, int j, int top_k) {
    return (g * kTokensPerCard + slot) * top_k + j;
}

// Which drawn copies their expert turns away with capacity_factor < 1: an expert takes at most
// ceil(capacity_factor x its fair share) of its ep group's drawn copies, in order
// (Switch Transformer's expert capacity; illustrative, like the routing: no count is read out).
std::vector<bool> dropped_copies(const engine::Config& c) {
    const int e = c.model.experts, k = c.model.top_k, ep = c.layout.ep;
    std::vector<bool> out(static_cast<std::size_t>(c.layout.gpus) * kTokensPerCard * k, false);
    const double cf = c.training.capacity_factor;
    if (cf >= 1 || e == 0) return out;
    const int cap = static_cast<int>(std::ceil(cf * ep * kTokensPerCard * k / e));
    std::vector<int> load(static_cast<std::size_t>(c.layout.gpus / ep + 1) * e, 0);
    // First choices before second ones (GShard's priority for a token's top expert).
    for (int j = 0; j < k; ++j)
        for (int g = 0; g < c.layout.gpus; ++g)
            for (int slot = 0; slot < kTokensPerCard; ++slot) {
                const int expert = routed_expert(g * kTokensPerCard + slot, j, e);
                if (++load[(g / ep) * e + expert] > cap) out[copy_index(g, slot, j, k)] = true;
            }
    return out;
}

// Expert box j of n inside a card: a grid under the card's name.
Box expert_box(const Box& card, int n, int j) {
    const Box area{card.x + kExpertPad, card.y + kExpertTop, card.w - 2 * kExpertPad,
                   card.h - kExpertTop - kExpertPad};
    const int cols = n <= 1 ? 1 : n <= 4 ? 2 : 4;
    const int rows = (n + cols - 1) / cols;
    return grid_cell(area, cols, rows, j % cols, j / cols, kExpertGap, kExpertGap);
}

// A quadratic curve under the row from a to b, deeper the further apart they are.
std::vector<Point> arc(Point a, Point b, double depth) {
    const Point c{(a.x + b.x) / 2, std::max(a.y, b.y) + 2 * depth};
    std::vector<Point> out;
    for (double u = 0; u <= 1 + 1e-9; u += kArcStep) {
        const double v = 1 - u;
        out.push_back({v * v * a.x + 2 * u * v * c.x + u * u * b.x,
                       v * v * a.y + 2 * u * v * c.y + u * u * b.y});
    }
    return out;
}

class ExpertChapter final : public ChapterBase {
  public:
    ExpertChapter(const ChapterSpec& spec, const Video& video, const TextMetrics& metrics)
        : ChapterBase(spec, video, metrics),
          cards_in_{at(kCardsAt)},
          tokens_in_(Fade::in(at(kTokensAt))),
          gate_in_(Fade::in(at(kGateAt))),
          traffic_in_(Fade::in(at(kTrafficAt))),
          params_in_(Fade::in(at(kParamsAt))),
          readout_in_(Fade::in(at(kReadoutAt))) {
        for (const engine::Config& c : timeline_.states()) {
            gpus_.push_back(c.layout.gpus);
            eps_.push_back(c.layout.ep);
            experts_.push_back(c.model.experts);
            top_k_.push_back(c.model.top_k);
            bandwidth_.push_back(engine::group_bandwidth(c, engine::Group::ep).value);
            dispatch_.push_back(engine::expert_dispatch_buffer(c).value);
            dropped_.push_back(dropped_copies(c));
            capacity_factor_.push_back(c.training.capacity_factor);
            std::vector<Box> row;
            for (int i = 0; i < c.layout.gpus; ++i)
                row.push_back(row_cell(kCards, c.layout.gpus, i, kCardGap, kMaxCardW));
            rows_.push_back(std::move(row));
        }
    }

    Scene scene_at(double t) const override {
        Scene s = blank();
        const Morph m = timeline_.morph_at(t);
        add_gate_line(s, t, m);
        add_traffic(s, t, m);
        add_cards(s, t, m);
        add_tokens(s, t, m);
        add_params(s, t);
        add_readout(s, t, m);
        add_frame(s, t);
        return s;
    }

  private:
    int per_card(int state) const { return experts_[state] / eps_[state]; }

    Box card(const Morph& m, int i) const {
        const auto& a = rows_[m.from];
        const auto& b = rows_[m.to];
        const int ia = std::min<int>(i, static_cast<int>(a.size()) - 1);
        const int ib = std::min<int>(i, static_cast<int>(b.size()) - 1);
        return lerp(a[ia], b[ib], m.u);
    }

    // Cards stay (new ones fade in, dropped ones out); the experts inside them move.
    void add_cards(Scene& s, double t, const Morph& m) const {
        const int n = std::max(gpus_[m.from], gpus_[m.to]);
        for (int i = 0; i < n; ++i) {
            double alpha = cards_in_.at(t, i);
            if (i >= gpus_[m.to]) alpha *= leaving(m);
            if (i >= gpus_[m.from]) alpha *= arriving(m);
            if (alpha <= 0) continue;
            const Box b = card(m, i);
            add_items(s, gpu_tile(palette_, metrics_, {b, tr("GPU {n}", {{"n", i}}), 26}), alpha);
            add_experts(s, b, i, m, alpha);
        }
    }

    // Where GPU `gpu` keeps expert x in state k, if it holds it.
    std::optional<Box> held_box(const Box& card, int gpu, int x, int k) const {
        const int n = per_card(k), first = first_expert(gpu, eps_[k], experts_[k]);
        if (gpu >= gpus_[k] || x < first || x >= first + n) return std::nullopt;
        return expert_box(card, n, x - first);
    }

    // The old grid fades out over the first half of the morph and the new one in over the
    // second (the grid changes with experts / ep): an expert a card keeps reappears in its new
    // place rather than sliding through its neighbours as the grid resizes; one that stays put
    // stays drawn.
    void add_experts(Scene& s, const Box& card, int gpu, const Morph& m, double alpha) const {
        const bool same_model = experts_[m.from] == experts_[m.to];
        const bool whole = per_card(shown_state(m)) == 1;  // one expert: named in full
        for (int x = 0; x < std::max(experts_[m.from], experts_[m.to]); ++x) {
            const auto a = held_box(card, gpu, x, m.from), b = held_box(card, gpu, x, m.to);
            if (a && b && same_model && *a == *b) {
                add_expert(s, *a, x, whole, alpha);
                continue;
            }
            if (a) add_expert(s, *a, x, per_card(m.from) == 1, alpha * leaving(m));
            if (b) add_expert(s, *b, x, per_card(m.to) == 1, alpha * arriving(m));
        }
    }

    void add_expert(Scene& s, const Box& e, int x, bool whole, double alpha) const {
        if (alpha <= 0) return;
        s.add(filled(e, 6, mix(palette_.panel, palette_.weights, 0.35), palette_.weights, 2),
              alpha);
        const std::string name = tr(whole ? N_("Expert {n}") : N_("E{n}"), {{"n", x}});
        s.add(Text{e.cx(), centred_baseline(metrics_, name, kExpertStyle, e.y + kLabelBand / 2),
                   name, kExpertStyle, palette_.text, Align::center},
              alpha);
    }

    // Where token `slot` of a card sits above it.
    Point token_home(const Box& card, int slot) const {
        const double w = kTokensPerCard * kToken + (kTokensPerCard - 1) * kTokenGap;
        return {card.cx() - w / 2 + kToken / 2 + slot * (kToken + kTokenGap), kTokenY + kToken / 2};
    }

    // How far the tokens are from home at t: 0 home, 1 at their experts.
    double trip(double t) const {
        if (t < at(kRouteAt)) return 0;
        const double u = std::fmod(t - at(kRouteAt), kTrip) / kTrip;
        if (u < kOutShare) return ease(Ease::in_out_cubic, u / kOutShare);
        if (u < kOutShare + kStayShare) return 1;
        return 1 - ease(Ease::in_out_cubic,
                        (u - kOutShare - kStayShare) / (1 - kOutShare - kStayShare));
    }

    // Where a token lands in an expert's box: under its name, spread by the token's place among
    // the tokens of its ep group, so copies from different cards stay apart.
    static Point landing(const Box& expert, int place, int places) {
        const Box area{expert.x + kLandPad, expert.y + kLabelBand, expert.w - 2 * kLandPad,
                       expert.h - kLabelBand - kLandPad};
        return {area.x + kToken / 2 + (area.w - kToken) * (place + 0.5) / places, area.cy()};
    }

    // Each token splits into top_k copies flying to its experts' boxes, then back; a copy its
    // expert turns away (over capacity) stays home, outlined: it skips the expert.
    void add_tokens(Scene& s, double t, const Morph& m) const {
        const double alpha = tokens_in_.at(t) * swap_alpha(m);
        if (alpha <= 0) return;
        const int k = shown_state(m);
        const double u = trip(t);
        for (int g = 0; g < gpus_[k]; ++g)
            for (int slot = 0; slot < kTokensPerCard; ++slot)
                for (int j = 0; j < top_k_[k]; ++j) {
                    const Point home = token_home(card(m, g), slot);
                    if (dropped_[k][copy_index(g, slot, j, top_k_[k])]) {
                        s.add(outline(box_around(home, kToken, kToken), 5, palette_.activations,
                                      kDroppedStroke),
                              alpha);
                        continue;
                    }
                    const Point at_ = lerp(home, destination(m, k, g, slot, j), u);
                    s.add(filled(box_around(at_, kToken, kToken), 5, palette_.activations,
                                 palette_.background, 1.5),
                          alpha);
                }
    }

    // The expert box copy j of GPU g's token `slot` goes to.
    Point destination(const Morph& m, int k, int g, int slot, int j) const {
        const int n = per_card(k), ep = eps_[k], e = experts_[k];
        const int token = g * kTokensPerCard + slot;
        const int expert = routed_expert(token, j, e);
        const Box box = expert_box(card(m, holder(g, expert, ep, e)), n, expert % n);
        return landing(box, (g % ep) * kTokensPerCard + slot, ep * kTokensPerCard);
    }

    void add_gate_line(Scene& s, double t, const Morph& m) const {
        const int k = shown_state(m);
        const bool drops =
            std::find(dropped_[k].begin(), dropped_[k].end(), true) != dropped_[k].end();
        // A sentence across the frame: right to left, it starts at the right margin.
        const bool rtl = is_rtl(locale_.tag());
        s.add(Text{rtl ? frame::kRight : frame::kLeft, kGateBaseline,
                   tr(drops ? N_("Gate: each token goes to its top {k} of {experts} experts · {n} "
                                 "per GPU (ep {ep}) · outlined: over capacity, dropped")
                            : N_("Gate: each token goes to its top {k} of {experts} experts · {n} "
                                 "per GPU (ep {ep})"),
                      {{"k", top_k_[k]},
                       {"experts", experts_[k]},
                       {"n", per_card(k)},
                       {"ep", eps_[k]}}),
                   style_of(Role::note), palette_.muted, rtl ? Align::right : Align::left},
              gate_in_.at(t) * swap_alpha(m));
    }

    // The all-to-all: every card of an ep group sends to every other one, arcs under the row.
    void add_traffic(Scene& s, double t, const Morph& m) const {
        const int k = shown_state(m), ep = eps_[k];
        // The same groups on both sides of a morph (a capacity factor changing) stay drawn.
        const bool same = eps_[m.from] == eps_[m.to] && gpus_[m.from] == gpus_[m.to];
        const double alpha = traffic_in_.at(t) * (same ? 1.0 : swap_alpha(m));
        if (alpha <= 0 || ep < 2) return;
        const double busy = trip(t) > 0 && trip(t) < 1 ? 1 : 0.45;
        const double span = kCards.w;
        for (int a = 0; a < gpus_[k]; ++a)
            for (int b = a + 1; b < gpus_[k]; ++b) {
                if (a / ep != b / ep) continue;
                const Box ca = card(m, a), cb = card(m, b);
                const Point pa{fan(ca, b % ep, ep), kArcTop}, pb{fan(cb, a % ep, ep), kArcTop};
                const double depth = std::max(kMinDepth, kArcDepth * std::abs(pb.x - pa.x) / span);
                s.add(Path{arc(pa, pb, depth), false, std::nullopt, palette_.comm, kTrafficWidth},
                      alpha * busy);
            }
    }

    // The buffer one all-to-all routes from a GPU, and what its capacity factor does; at ep 1
    // there is no all-to-all (the readout says so), only the buffer one would route.
    std::string dispatch_text(double t) const {
        const bool none = eps_[timeline_.morph_at(t).shown()] < 2;
        return tr(none ? N_("An all-to-all would route {bytes} a GPU (capacity factor {factor})")
                       : N_("Each all-to-all routes {bytes} a GPU (capacity factor {factor})"),
                  {{"bytes", format_bytes(value_at(t, dispatch_), locale_)},
                   {"factor", format_sig3(value_at(t, capacity_factor_), locale_)}});
    }

    // Where the arc to partner `rank` (of ep) leaves a card's bottom: one place per partner.
    static double fan(const Box& card, int rank, int ep) {
        return card.x + card.w * (kFanInset + (1 - 2 * kFanInset) * rank / (ep - 1));
    }

    // Total and active parameters side by side: the engine's, whatever ep is.
    void add_params(Scene& s, double t) const {
        const double alpha = params_in_.at(t);
        TextColumn total(metrics_, frame::kLeft, kReadoutTop);
        total.line(tr("Parameters in total"), Role::note, palette_.muted)
            .line(format_params(figure_at(t, [](const engine::Report& r) { return r.params; }),
                                locale_),
                  Role::value, palette_.weights);
        total.add_to(s, alpha);
        TextColumn active(metrics_, kActiveX, kReadoutTop);
        active.line(tr("Active per token"), Role::note, palette_.muted)
            .line(
                format_params(figure_at(t, [](const engine::Report& r) { return r.params_active; }),
                              locale_),
                Role::value, palette_.activations);
        active.add_to(s, alpha);
        // What one all-to-all carries: the engine's buffer, sized by the capacity factor; with
        // the readout, not before the lines reach the traffic.
        s.add(Text{frame::kLeft, total.bottom() + kBufferDrop, dispatch_text(t),
                   style_of(Role::note), palette_.muted},
              readout_in_.at(t));
    }

    void add_readout(Scene& s, double t, const Morph& m) const {
        const int ep = eps_[shown_state(m)];
        const double sent =
            figure_at(t, [](const engine::Report& r) { return r.comm.ep_per_gpu.value; });
        const double secs =
            figure_at(t, [](const engine::Report& r) { return r.comm.ep_time.value; });
        TextColumn col(metrics_, kReadoutX, kReadoutTop);
        if (ep < 2) {
            col.line(tr("ep 1: every GPU holds every expert"), Role::note, palette_.muted)
                .line(tr("no all-to-all"), Role::value, palette_.comm);
        } else {
            col.line(tr("All-to-all across ep {n} GPUs, each sends", {{"n", ep}}), Role::note,
                     palette_.muted)
                .line(tr("{bytes} per step", {{"bytes", format_bytes(sent, locale_)}}), Role::value,
                      palette_.comm)
                .line(tr("at {bandwidth} each way: {time}",
                         {{"bandwidth", format_bandwidth(value_at(t, bandwidth_), locale_)},
                          {"time", format_time(secs, locale_)}}),
                      tabular(style_of(Role::body)), palette_.text);
        }
        const bool switches = (eps_[m.from] < 2) != (eps_[m.to] < 2);
        col.add_to(s, readout_in_.at(t) * (switches ? swap_alpha(m) : 1.0));
    }

    const Stagger cards_in_;
    const Fade tokens_in_, gate_in_, traffic_in_, params_in_, readout_in_;
    std::vector<int> gpus_, eps_, experts_, top_k_;
    std::vector<double> bandwidth_, dispatch_, capacity_factor_;
    std::vector<std::vector<bool>> dropped_;  // per state, by copy_index
    std::vector<std::vector<Box>> rows_;
};

std::optional<std::string> cannot_draw(const engine::Config& c) {
    if (c.model.experts == 0)
        return "expert_parallel draws a mixture-of-experts model; " + c.model.name +
               " is dense (no experts)";
    if (c.layout.gpus > kMaxCards)
        return "expert_parallel draws at most " + std::to_string(kMaxCards) + " GPUs, got " +
               std::to_string(c.layout.gpus);
    if (c.model.experts / c.layout.ep > kMaxExpertsPerCard)
        return "expert_parallel draws at most " + std::to_string(kMaxExpertsPerCard) +
               " experts per GPU, got " + std::to_string(c.model.experts / c.layout.ep) +
               " (raise ep)";
    return std::nullopt;
}

const FactRow kEp{"layout.ep", N_("Expert-parallel degree"), Shown::count,
                  [](const engine::Report& r) { return double(r.layout.ep); }};
const FactRow kActive{"params_active", N_("Active per token"), Shown::params,
                      [](const engine::Report& r) { return r.params_active; }};
const FactRow kSent{"comm_per_step.ep_bytes_per_gpu", N_("All-to-all, sent per GPU each step"),
                    Shown::bytes, [](const engine::Report& r) { return r.comm.ep_per_gpu.value; }};
const FactRow kSeconds{"comm_per_step.ep_seconds", N_("All-to-all time per step"), Shown::seconds,
                       [](const engine::Report& r) { return r.comm.ep_time.value; }};

// Experts per GPU, E / ep (none for a dense model).
std::vector<Formula> experts_per_gpu(const engine::Config& c, const engine::Report& r,
                                     const Locale& l) {
    const int experts = c.model.experts, ep = r.layout.ep;
    if (experts == 0) return {};
    return {formula(N_("Experts per GPU"), frac(mi("E"), mi("ep")),
                    frac(mn(format_int(experts, l)), mn(format_int(ep, l))),
                    format_int(experts / ep, l), l)};
}

const KindRegistrar registrar{{
    .name = "expert_parallel",
    .default_duration = kDefaultDuration,
    .settable = {"ep", "gpus", "capacity_factor", "nvlink", "network"},
    .make = make_of<ExpertChapter>,
    .cannot_draw = cannot_draw,
    .shows = "a mixture-of-experts layer: GPU cards each holding experts / ep experts, "
             "tokens sent by the gate to their top-k experts (a fixed illustrative routing) "
             "and back; the all-to-all dispatch and combine drawn between every pair of "
             "cards in an ep group, with bytes per card per step and their time; total "
             "against active parameters; experts per card morphing as ep changes; below a "
             "capacity factor of 1 the copies over an expert's capacity stay home, outlined "
             "(dropped), and the buffer shrinks",
    .set_note = "the model is the chapter's `model:`: of the presets only Mixtral has few "
                "enough experts to draw",
    .sample = "model: mixtral-8x7b\n"
              "parallel: {gpus: 8, tp: 1, pp: 1}\n"
              "training: {micro_batches: 8}\n"
              "cluster: {gpu: h100-sxm-80gb, gpus_per_node: 8, nodes: 2}\n",
    .goldens = {{"chapter_expert_parallel", 25.8,
                 "tokens at their experts across the node at ep 8"}},
    .phases = {{"cards", kCardsAt, "the GPUs and the experts each holds"},
               {"params", kParamsAt, "parameters: all of them, and those a token uses"},
               {"tokens", kTokensAt, "the tokens on their cards"},
               {"gate", kGateAt, "the gate's rule: each token's top k experts, and where they are"},
               {"route", kRouteAt, "tokens travel to their two experts and back"},
               {"readout", kReadoutAt, "what the all-to-all sends"}},
    .facts = {.rows = {kEp, rows::params, kActive, kSent, kSeconds, rows::memory},
              .formulas = {experts_per_gpu, formulas::memory}},
}};

}  // namespace

}  // namespace story
