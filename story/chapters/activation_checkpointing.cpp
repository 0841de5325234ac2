// `activation_checkpointing`: what a GPU keeps for the backward pass. The card's stack
// (weights, gradients, optimizer, activations on top), one layer's activation bytes as the
// Korthikanti formula with its numbers, and a compute bar. `set: {recompute: ...}` collapses
// the activations (selective drops the attention scores, full keeps only 2sbh per layer) while
// the compute bar grows by the forward pass run again: +1/3 under full recompute.
#include <algorithm>
#include <cmath>

#include "engine/recompute.hpp"
#include "story/chapter/chapter_base.hpp"
#include "story/draw/draw.hpp"
#include "story/text/format.hpp"
#include "story/vocab/vocab.hpp"

namespace story {

namespace {

constexpr double kDefaultDuration = 20;
// Choreography, in seconds of the default duration.
constexpr double kCardAt = 0.4, kFillAt = 0.9, kActivationsAt = 1.7, kLayerAt = 2.6, kTotalAt = 4.4;
constexpr double kComputeAt = 6.0;
constexpr double kStatesFillFor = 0.8, kActivationsFillFor = 1.0;  // then the activations pour in
constexpr double kLabelsAfter = 0.3;  // s after its segment starts filling, a label enters

// The card, its stack labels beside it, and the read-out column right of them.
constexpr Box kCard{130, 300, 300, 560};
constexpr double kCardSpill = 0.16;
constexpr double kLabelX = kCard.x + kCard.w + 30, kValueRight = 800, kSwatch = 18, kSwatchGap = 10;
constexpr double kLabelPitch = 52, kLabelsBelowTop = 40, kLowestLabel = 10;
constexpr double kRightX = 900, kRightW = frame::kRight - kRightX, kReadoutTop = 288;
constexpr double kBarGap = 14, kSectionGap = 24, kLayerBarH = 44, kComputeBarH = 56;
constexpr double kScoresFill = 0.4;   // the attention scores' share of the bar, drawn faint
constexpr double kScoresFadePx = 40;  // their legend entry fades with the bar's last 40 px
constexpr double kMostUnits = 4;      // the compute bar has room for full recompute's 4 passes
constexpr double kNone = 0.005;       // a coefficient or unit count below this reads as none

struct CkptState {
    engine::ActivationCoefficients coef;
    engine::ComputeUnits compute;
};

std::vector<CkptState> ckpt_states(const std::vector<engine::Config>& states) {
    std::vector<CkptState> out;
    for (const engine::Config& c : states)
        out.push_back({engine::activation_coefficients(c.model, c.training, c.layout.tp),
                       engine::recompute_compute_units(c)});
    return out;
}

// The per-layer formula in symbols, as Korthikanti et al. write it for this configuration.
std::string formula(const engine::Config& c) {
    const engine::Training& tr = c.training;
    const bool split = c.layout.tp > 1, sp = tr.sequence_parallel && split;
    if (tr.recompute == engine::Recompute::full) return sp ? "2·s·b·h / t" : "2·s·b·h";
    const std::string linear = sp ? "34/t" : split ? "10 + 24/t" : "34";
    const bool scores = tr.recompute == engine::Recompute::none && !tr.flash_attention;
    if (!scores) return linear == "34" ? "34·s·b·h" : "s·b·h·(" + linear + ")";
    return "s·b·h·(" + linear + " + 5as/" + (split ? "(h·t)" : "h") + ")";
}

// The setting and its value, as storyboards name them: "Recompute: full" (whole, so that a
// language translates the value too).
std::string recompute_name(const Locale& l, const engine::Config& c) {
    const char* kModes[] = {N_("Recompute: none"), N_("Recompute: selective"),
                            N_("Recompute: full")};
    return l.tr(kModes[static_cast<int>(c.training.recompute)]);
}

// The read-out column's lines, top to bottom; the two bars sit in gaps between them.
enum ReadoutLine { kHeading, kFormula, kNumbers, kLegend, kTotal, kComputeHeading, kSum, kExtra };

const TextStyle kHeadingStyle = weighted(style_of(Role::body), Weight::semibold);
const TextStyle kNumbersStyle = tabular(style_of(Role::note));
const TextStyle kResultStyle = style_of(Role::figure);

class CheckpointChapter final : public ChapterBase {
  public:
    CheckpointChapter(const ChapterSpec& spec, const Video& video, const TextMetrics& metrics)
        : ChapterBase(spec, video, metrics),
          ckpt_(ckpt_states(timeline_.states())),
          colors_(pass_colors(palette_)),
          card_in_(Fade::in(at(kCardAt))),
          states_fill_(Fade::in(at(kFillAt), kStatesFillFor)),
          activations_fill_(Fade::in(at(kActivationsAt), kActivationsFillFor)),
          states_labels_in_(Fade::in(at(kFillAt) + kLabelsAfter)),
          activations_labels_in_(Fade::in(at(kActivationsAt) + kLabelsAfter)),
          layer_in_(Fade::in(at(kLayerAt))),
          total_in_(Fade::in(at(kTotalAt))),
          compute_in_(Fade::in(at(kComputeAt))),
          readout_(metrics_, kRightX, kReadoutTop) {
        lay_out_readout();
        for (const CkptState& k : ckpt_) most_coef_ = std::max(most_coef_, k.coef.total());
    }

    // The panel says what the card draws: until the activations pour in, only the model states
    // (named so, and under the card's capacity here); from then on the card's whole figure, with
    // "over by" where it passes the capacity.
    std::vector<Stat> stats_at(double t) const override {
        std::vector<Stat> stats = stat_panel(report_at(t));
        if (t < at(kActivationsAt)) {
            const engine::PerGpu& g = report_at(t).per_gpu;
            const double states = g.weights.value + g.gradients.value + g.optimizer.value;
            stats.front() = {tr("Model states per card"), format_bytes(states, locale_)};
            if (states > g.capacity.value) {
                stats.front().detail = over_by(locale_, states - g.capacity.value);
                stats.front().alert = true;
            }
        }
        return stats;
    }

    Scene scene_at(double t) const override {
        Scene s = blank();
        add_card(s, t);
        add_layer(s, t);
        add_total(s, t);
        add_compute(s, t);
        add_frame(s, t);
        return s;
    }

  private:
    // The read-out's baselines and bars, placed once by a text column in the lines' roles (the
    // texts drawn at t are fitted into these lines, so a changing number never moves the rest).
    void lay_out_readout() {
        readout_.line("heading", kHeadingStyle, palette_.text)
            .line("formula", Role::body, palette_.text)
            .line("numbers", kNumbersStyle, palette_.text)
            .gap(kBarGap);
        layer_bar_y_ = readout_.bottom();
        readout_.gap(kLayerBarH + kBarGap)
            .line("legend", Role::note, palette_.text)
            .gap(kBarGap)
            .line("total", kResultStyle, palette_.text)
            .gap(kSectionGap)
            .line("heading", kHeadingStyle, palette_.text)
            .gap(kBarGap);
        compute_bar_y_ = readout_.bottom();
        readout_.gap(kComputeBarH + kBarGap)
            .line("sum", kResultStyle, palette_.text)
            .line("extra", kResultStyle, palette_.text);
    }

    const engine::Config& state(double t) const { return timeline_.state_at(t); }

    double mine(double t, double (*f)(const CkptState&)) const {
        return f(ckpt_[timeline_.morph_at(t).shown()]);
    }

    // A line of the read-out column at t: text in its style, shrunk to fit the column's width.
    void add_line(Scene& s, ReadoutLine line, std::string text, TextStyle style, Color color,
                  double alpha) const {
        style.size = fit_size(metrics_, text, style, kRightW);
        s.add(Text{kRightX, readout_.baseline(line), std::move(text), style, color}, alpha);
    }

    struct Segment {
        std::string name;
        double bytes;
        Color color;
    };

    std::vector<Segment> segments(double t) const {
        const auto fig = [&](engine::Bytes engine::PerGpu::*field) {
            return figure_at(t,
                             [field](const engine::Report& r) { return (r.per_gpu.*field).value; });
        };
        return {{tr("Weights"), fig(&engine::PerGpu::weights), palette_.weights},
                {tr("Gradients"), fig(&engine::PerGpu::gradients), palette_.gradients},
                {tr("Optimizer"), fig(&engine::PerGpu::optimizer), palette_.optimizer},
                {tr("Activations"), fig(&engine::PerGpu::activations), palette_.activations}};
    }

    void add_card(Scene& s, double t) const {
        const double alpha = card_in_.at(t);
        if (alpha <= 0) return;
        const auto segs = segments(t);
        // Model states first, then the activations pour in on top.
        CardSpec card{kCard.x,
                      kCard.y,
                      kCard.w,
                      kCard.h,
                      tr("GPU {n}", {{"n", 0}}),
                      state(t).cluster.gpu.memory.value,
                      {}};
        for (std::size_t i = 0; i < segs.size(); ++i) {
            const Fade& fill = i + 1 < segs.size() ? states_fill_ : activations_fill_;
            card.stack.push_back({segs[i].bytes * fill.at(t), segs[i].color});
        }
        card.max_spill = kCardSpill;
        add_items(s, gpu_card(palette_, metrics_, locale_, card), alpha);
        add_stack_labels(s, t, segs, card);
    }

    // Each label at its segment's middle, pushed apart so none collide, kept beside the card.
    void add_stack_labels(Scene& s, double t, const std::vector<Segment>& segs,
                          const CardSpec& card) const {
        const Box stack = stack_area(metrics_, card);
        const double bottom = stack.bottom(), px = stack.h / card.capacity;
        std::vector<double> ys;
        double y = bottom;
        for (const Segment& seg : segs) {
            ys.push_back(y - seg.bytes * px / 2);
            y -= seg.bytes * px;
        }
        ys[0] = std::min(ys[0], bottom - kLowestLabel);
        for (std::size_t i = 1; i < ys.size(); ++i)
            ys[i] = std::min(ys[i], ys[i - 1] - kLabelPitch);
        const double lift = std::max(0.0, kCard.y + kLabelsBelowTop - ys.back());
        const TextStyle name = style_of(Role::label), value = style_of(Role::figure);
        for (std::size_t i = 0; i < segs.size(); ++i) {
            const double mid = ys[i] + lift;
            const std::string bytes = format_bytes(segs[i].bytes, locale_);
            const double alpha =
                (i + 1 < segs.size() ? states_labels_in_ : activations_labels_in_).at(t);
            s.add(filled(box_around({kLabelX + kSwatch / 2, mid}, kSwatch, kSwatch), 3,
                         segs[i].color),
                  alpha);
            s.add(Text{kLabelX + kSwatch + kSwatchGap,
                       centred_baseline(metrics_, segs[i].name, name, mid), segs[i].name, name,
                       palette_.text},
                  alpha);
            s.add(Text{kValueRight, centred_baseline(metrics_, bytes, value, mid), bytes, value,
                       palette_.text, Align::right},
                  alpha);
        }
    }

    // One layer: the formula, its numbers, and a bar that collapses under recompute.
    void add_layer(Scene& s, double t) const {
        const double alpha = layer_in_.at(t);
        if (alpha <= 0) return;
        const engine::Config& c = state(t);
        add_line(s, kHeading, tr("Activations kept per layer"), kHeadingStyle, palette_.text,
                 alpha);
        s.add(Text{frame::kRight, readout_.baseline(kHeading), recompute_name(locale_, c),
                   weighted(style_of(Role::label), Weight::semibold), palette_.highlight,
                   Align::right},
              alpha);
        add_line(s, kFormula, tr("{formula} bytes", {{"formula", formula(c)}}),
                 style_of(Role::body), palette_.text, alpha);
        const double linear = mine(t, [](const CkptState& k) { return k.coef.linear; });
        const double scores = mine(t, [](const CkptState& k) { return k.coef.scores; });
        const double per_layer =
            figure_at(t, [](const engine::Report& r) { return r.activations.per_layer.value; });
        const std::string coef = scores > kNone ? "(" + format_sig3(linear, locale_) + " + " +
                                                      format_sig3(scores, locale_) + ")"
                                                : format_sig3(linear, locale_);
        // "bytes" in words, as the formula above says it: "34 B" reads as 34 billion beside
        // the film's 7B models.
        const std::string product = format_int(c.training.seq_len, locale_) + " × " +
                                    format_int(c.training.micro_batch, locale_) + " × " +
                                    format_int(c.model.hidden, locale_) + " × " + coef;
        add_line(s, kNumbers,
                 tr("{formula} bytes", {{"formula", product}}) + " = " +
                     format_bytes(per_layer, locale_),
                 kNumbersStyle, palette_.muted, alpha);
        add_layer_bar(s, linear, scores, alpha);
    }

    // Bar length is bytes per element, against the largest of the chapter's states.
    void add_layer_bar(Scene& s, double linear, double scores, double alpha) const {
        const double px = kRightW / std::max(most_coef_, 1e-9);
        const Box kept{kRightX, layer_bar_y_, linear * px, kLayerBarH};
        const Color faint = with_alpha(palette_.activations, kScoresFill);
        s.add(filled(kept, 3, palette_.activations), alpha);
        const bool shown = scores * px > 0.5;
        if (shown)
            s.add(filled({kept.right(), kept.y, scores * px, kept.h}, 3, faint,
                         palette_.activations, 1.5),
                  alpha);
        std::vector<LegendEntry> legend{{tr("kept for the backward pass"), palette_.activations}};
        // The scores' entry fades with their bar as it collapses.
        if (shown)
            legend.push_back({tr("attention scores"), faint, false, scores * px / kScoresFadePx});
        add_legend(s, palette_, metrics_, kRightX, readout_.baseline(kLegend), legend, alpha);
    }

    void add_total(Scene& s, double t) const {
        const double alpha = total_in_.at(t);
        if (alpha <= 0) return;
        const engine::Report& r = report_at(t);
        const double total =
            figure_at(t, [](const engine::Report& x) { return x.per_gpu.activations.value; });
        add_line(
            s, kTotal,
            tr(r.activations.in_flight_micro_batches == 1
                   ? N_("× {layers} layers × {n} micro-batch in flight = {bytes} on this GPU")
                   : N_("× {layers} layers × {n} micro-batches in flight = {bytes} on this GPU"),
               {{"layers", format_int(r.activations.layers_per_gpu, locale_)},
                {"n", format_sig3(r.activations.in_flight_micro_batches, locale_)},
                {"bytes", format_bytes(total, locale_)}}),
            kResultStyle, palette_.activations, alpha);
    }

    // Work per step in units of one forward pass: forward, backward, and the forward run again.
    void add_compute(Scene& s, double t) const {
        const double alpha = compute_in_.at(t);
        if (alpha <= 0) return;
        add_line(s, kComputeHeading, tr("Compute per step"), kHeadingStyle, palette_.text, alpha);
        const double fwd = mine(t, [](const CkptState& k) { return k.compute.forward; });
        const double bwd = mine(t, [](const CkptState& k) { return k.compute.backward; });
        const double re = mine(t, [](const CkptState& k) { return k.compute.recompute; });
        const double px = kRightW / kMostUnits;
        const struct {
            double units;
            Color fill;
            const char* name;
        } parts[] = {{fwd, colors_.forward, N_("forward")},
                     {bwd, colors_.backward, N_("backward")},
                     {re, palette_.highlight, N_("forward again")}};
        double x = kRightX;
        const TextStyle label = weighted(style_of(Role::label), Weight::semibold);
        for (const auto& p : parts) {
            const Box part{x, compute_bar_y_, p.units * px, kComputeBarH};
            x = part.right();
            if (part.w < 0.5) continue;
            s.add(filled(inset(part, 1, 0), 3, p.fill), alpha);
            const std::string name = tr(p.name);
            if (metrics_.measure(name, label).advance + 16 < part.w)
                s.add(Text{part.cx(), centred_baseline(metrics_, name, label, part.cy()), name,
                           label, readable_on(palette_, p.fill), Align::center},
                      alpha);
        }
        const double ratio = mine(t, [](const CkptState& k) { return k.compute.ratio(); });
        const std::string sum = format_sig3(fwd, locale_) + " + " + format_sig3(bwd, locale_) +
                                (re > kNone ? " + " + format_sig3(re, locale_) : "");
        add_line(s, kSum,
                 tr("{sum} = {total} forward passes of work",
                    {{"sum", sum}, {"total", format_sig3(fwd + bwd + re, locale_)}}),
                 kResultStyle, palette_.text, alpha);
        add_line(s, kExtra,
                 re > kNone ? tr("+{percent} compute to save the memory",
                                 {{"percent", format_percent(ratio - 1, locale_)}})
                            : tr("no extra compute"),
                 kResultStyle, re > kNone ? palette_.highlight : palette_.muted, alpha);
    }

    const std::vector<CkptState> ckpt_;
    const PassColors colors_;
    const Fade card_in_, states_fill_, activations_fill_, states_labels_in_, activations_labels_in_,
        layer_in_, total_in_, compute_in_;
    TextColumn readout_;  // the read-out's lines (ReadoutLine), their texts drawn at t
    double layer_bar_y_ = 0, compute_bar_y_ = 0;
    double most_coef_ = 1e-9;  // bytes per element of the chapter's heaviest state
};

const FactRow kPerLayer{"activations.per_layer_bytes", N_("Activations per layer"), Shown::bytes,
                        [](const engine::Report& r) { return r.activations.per_layer.value; }};
const FactRow kLayers{"activations.layers_per_gpu", N_("Layers per GPU"), Shown::count,
                      [](const engine::Report& r) { return double(r.activations.layers_per_gpu); }};

const KindRegistrar registrar{{
    .name = "activation_checkpointing",
    .default_duration = kDefaultDuration,
    .settable = {"recompute", "seq_len", "micro_batch", "flash_attention", "model",
                 "sequence_parallel", "tp"},
    .make = make_of<CheckpointChapter>,
    .shows = "per-layer activations (Korthikanti et al.) on the card's stack collapsing "
             "under selective and full recompute, with the compute bar growing by a third",
    .goldens = {{"chapter_activation_checkpointing", 13,
                 "the activations collapsing under recompute"}},
    .phases = {{"states", kFillAt, "the model states fill the card"},
               {"activations", kActivationsAt, "the activations pour in on top"},
               {"layer", kLayerAt, "one layer's activations, by the formula"},
               {"total", kTotalAt, "every layer's activations, against the card"},
               {"compute", kComputeAt, "a step's compute in forward passes"}},
    .facts = {.rows = {kPerLayer, kLayers, rows::activations, rows::memory},
              .formulas = {formulas::memory}},
}};

}  // namespace

}  // namespace story
