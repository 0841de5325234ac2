// `step_memory`: on paper, and in practice. One GPU's memory through a training step as a memory
// profiler draws it (story/vocab/step_timeline.hpp): the model states and what a framework keeps
// beside them, then the forward pass stacking up activations layer by layer, the logits and the
// loss at its end, the backward freeing them while it fills the gradients, every micro-batch and
// the optimizer step. Beside it the film's first-order figure and the expected peak, each extra
// term named (engine::expected_peak); the chart's top is that peak.
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "engine/memory.hpp"
#include "story/chapter/chapter_base.hpp"
#include "story/draw/draw.hpp"
#include "story/text/format.hpp"
#include "story/vocab/step_timeline.hpp"

namespace story {

namespace {

constexpr double kDefaultDuration = 30;
// Choreography, in seconds of the default duration: the phases, then how long each sweep of the
// timeline takes (authored seconds).
constexpr double kStatesAt = 0.3, kForwardAt = 5, kLossAt = 9, kBackwardAt = 12, kStepAt = 17;
constexpr double kPeakAt = 23;
constexpr double kForwardFor = 3, kLossFor = 1, kBackwardFor = 3.5, kStepFor = 4.5;
constexpr int kMostMicroBatches = 16;  // the chart's staircases stay wider than a few px

// The chart (y: GB on one GPU, x: the step), its axis labels left of it and under it, its key in
// two rows under that; the table of figures right of it.
constexpr Box kChart{230, 300, 790, 470};
constexpr double kAxisGap = 14, kPassLabelDrop = 34, kKeyTop = 880, kKeyPitch = 34;
constexpr double kPassLabelGap = 24;  // between two micro-batches' names under the chart
constexpr double kLevelGap = 10;      // a level's label clear of its line
constexpr double kTableX = 1330, kPaperRight = 1668, kExpectedRight = frame::kRight;
constexpr double kTableTop = 330, kRowPitch = 46, kTotalGap = 16;
constexpr int kMostGridLines = 6;
constexpr double kSwatch = 18, kSwatchGap = 10;

const TextStyle kHeader = style_of(Role::label);
const TextStyle kTerm = style_of(Role::small);
const TextStyle kFigure = tabular(style_of(Role::small));
const TextStyle kTotal = tabular(weighted(style_of(Role::note), Weight::semibold));

// The rows of the table: on paper (the film's first-order figure) and the expected peak.
enum TermRow { kStates, kActs, kLogits, kBuffers, kReserve, kContext, kTermRows };
const std::array<const char*, kTermRows> kTermName{
    N_("Model states"),          N_("Activations"),       N_("Logits and loss"),
    N_("Communication buffers"), N_("Allocator reserve"), N_("CUDA and NCCL context")};

// A sweep of the timeline: u (step units) reaches `to` over [start, start + length].
struct Sweep {
    double start, length, from, to;
};

// The page's formula: the expected peak as the sum the table adds up, with its values.
std::vector<Formula> peak_formula(const engine::Config&, const engine::Report& r, const Locale& l) {
    const engine::PeakTerms& e = r.per_gpu.expected.first.terms;
    const auto b = [&l](engine::Bytes v) { return mn(format_bytes(v.value, l)); };
    const Math symbols = mi("M") + mo("+") + mi("A") + mo("+") + mi("L") + mo("+") + mi("B") +
                         mo("+") + mi("R") + mo("+") + mi("C");
    const Math values = b(e.weights + e.gradients + e.optimizer + e.grad_accum) + mo("+") +
                        b(e.activations) + mo("+") + b(e.logits) + mo("+") +
                        b(e.dp_buckets + e.param_gather + e.tp_gather) + mo("+") + b(e.reserve) +
                        mo("+") + b(e.context);
    return {
        {l.tr("Expected peak"), symbols, values, format_bytes(r.per_gpu.expected.total.value, l)}};
}

std::optional<std::string> cannot_draw(const engine::Config& c) {
    if (c.layout.pp > 1)
        return "step_memory draws one GPU's step without pipeline parallelism (pp 1): use "
               "pipeline_bubble for a pipeline";
    if (c.training.micro_batches > kMostMicroBatches)
        return "step_memory draws at most " + std::to_string(kMostMicroBatches) +
               " micro-batches a step";
    return std::nullopt;
}

class StepMemoryChapter final : public ChapterBase {
  public:
    StepMemoryChapter(const ChapterSpec& spec, const Video& video, const TextMetrics& metrics)
        : ChapterBase(spec, video, metrics),
          states_in_(Fade::in(at(kStatesAt))),
          peak_in_(Fade::in(at(kPeakAt))),
          logits_label_(Fade::in(at(kLossAt)).out(at(kBackwardAt))),
          stage_(reports_.front().per_gpu.expected.first),
          micro_batches_(spec.config.training.micro_batches) {
        const int slots = std::max(1, stage_.layers) + 1;
        const double forward_end = 1 - 0.5 / slots, loss = 1 + 0.5 * kBackwardUnits / slots;
        sweeps_ = {{at(kForwardAt), span(kForwardAt, kForwardFor), 0, forward_end},
                   {at(kLossAt), span(kLossAt, kLossFor), forward_end, loss},
                   {at(kBackwardAt), span(kBackwardAt, kBackwardFor), loss,
                    pass_start(1, StepPass::forward)},
                   {at(kStepAt), span(kStepAt, kStepFor), pass_start(1, StepPass::forward),
                    step_units(micro_batches_)}};
        const engine::PerGpu& g = reports_.front().per_gpu;
        top_ = std::max({g.capacity.value, g.expected.total.value, g.total.value}) * 1.08;
        breaks_ = step_breaks(stage_, micro_batches_);
        for (double u : breaks_) bands_.push_back(step_bands(stage_, micro_batches_, u));
    }

    Scene scene_at(double t) const override {
        Scene s = blank();
        add_axes(s, t);
        add_bands(s, t, swept(t));
        add_lines(s, t);
        add_key(s, t);
        add_table(s, t);
        add_frame(s, t);
        return s;
    }

    // The panel names the chart's three levels: the figure on paper, the peak, the card. The
    // peak's figure is "—" until its line is drawn, as the line that names it is spoken.
    std::vector<Stat> stats_at(double t) const override {
        const engine::PerGpu& g = memory();
        const bool peak = t >= at(kPeakAt);
        return {{tr("On paper"), format_bytes(g.total.value, locale_)},
                {tr("Expected peak"), peak ? format_bytes(g.expected.total.value, locale_) : "—"},
                {tr("Capacity"), format_bytes(g.capacity.value, locale_)}};
    }

  private:
    // --- where things are ------------------------------------------------------------------
    double x_of(double u) const { return kChart.x + kChart.w * u / step_units(micro_batches_); }
    double y_of(double bytes) const { return kChart.bottom() - kChart.h * bytes / top_; }
    // Step units the timeline has been drawn to at t.
    double swept(double t) const {
        double u = 0;
        for (const Sweep& w : sweeps_)
            if (t >= w.start) u = lerp(w.from, w.to, progress(t, w.start, w.length, Ease::linear));
        return u;
    }
    const engine::PerGpu& memory() const { return reports_.front().per_gpu; }
    // The logits in a paler activations colour; the buffers between panel and muted grey.
    Color logits_color() const { return mix(palette_.activations, palette_.text, 0.45); }
    Color buffers_color() const { return mix(palette_.panel, palette_.muted, 0.55); }

    // --- the chart -------------------------------------------------------------------------
    void add_axes(Scene& s, double t) const {
        const double in = states_in_.at(t);
        if (in <= 0) return;
        const double step = grid_step();
        for (double gb = 0; gb * 1e9 <= top_; gb += step) {
            const double y = y_of(gb * 1e9);
            s.add(Line{{kChart.x, y}, {kChart.right(), y}, palette_.grid, 1}, in);
            s.add(Text{kChart.x - kAxisGap, y + 8, format_bytes(gb * 1e9, locale_), kFigure,
                       palette_.muted, Align::right},
                  in);
        }
        add_pass_labels(s, in);
    }
    // Gridlines every 10, 20, 50 or 100 GB: at most kMostGridLines.
    double grid_step() const {
        for (double step : {10.0, 20.0, 50.0, 100.0, 200.0, 500.0})
            if (top_ / 1e9 / step <= kMostGridLines) return step;
        return 1000;
    }
    // Under the chart: each micro-batch's span named, up to 4 of them (with more, the first two
    // and a count), and the optimizer step's at the end. Where the names would run together
    // (closer than kPassLabelGap), the first is named and the others numbered (with more than 4,
    // the first and the count).
    void add_pass_labels(Scene& s, double in) const {
        const double y = kChart.bottom() + kPassLabelDrop;
        const auto name = [&](int n) { return tr("micro-batch {n}", {{"n", n}}); };
        const double span = x_of(pass_start(1, StepPass::forward)) - x_of(0);
        const bool fit =
            metrics_.measure(name(micro_batches_), kTerm).advance + kPassLabelGap <= span;
        const int shown = micro_batches_ <= 4 ? micro_batches_ : (fit ? 2 : 1);
        double right = kChart.x;  // where the names so far end
        for (int k = 0; k < shown; ++k) {
            const std::string text = k == 0 || fit ? name(k + 1) : format_count(k + 1, locale_);
            const double mid = (x_of(pass_start(k, StepPass::forward)) +
                                x_of(pass_start(k + 1, StepPass::forward))) /
                               2;
            s.add(Text{mid, y, text, kTerm, palette_.muted, Align::center}, in);
            right = mid + metrics_.measure(text, kTerm).advance / 2;
        }
        if (shown < micro_batches_)
            s.add(Text{std::max(x_of(pass_start(shown, StepPass::forward)) + 10,
                                right + kPassLabelGap),
                       y, tr("… {n} in all", {{"n", micro_batches_}}), kTerm, palette_.muted},
                  in);
        s.add(Text{kChart.right(), y + kKeyPitch * 0.8, tr("optimizer step"), kTerm, palette_.muted,
                   Align::right},
              in);
    }

    // The bands from the chart's left edge to u: what stays allocated as rectangles, the
    // gradient buffer filling, the activations' staircase and the logits' peaks. What the figure
    // on paper leaves out (the context, the communication buffers, the allocator's reserve) rises
    // in under the activations as the peak's line names it: until then the chart climbs to about
    // the figure on paper, not past it unexplained.
    void add_bands(Scene& s, double t, double u) const {
        const double in = states_in_.at(t), extra = peak_in_.at(t);
        if (in <= 0) return;
        const double right = kChart.right();  // allocated the whole step
        const StepBands b = step_bands(stage_, micro_batches_, 0);
        double below = 0;
        const auto flat = [&](double bytes, Color c, bool hatched) {
            if (bytes <= 0) return;
            Rect r{kChart.x,
                   y_of(below + bytes),
                   right - kChart.x,
                   y_of(below) - y_of(below + bytes),
                   0,
                   c};
            if (hatched) r.hatch = palette_.muted;
            s.add(r, in);
            below += bytes;
        };
        flat(b.context * extra, palette_.grid, false);
        flat(b.weights, palette_.weights, false);
        add_gradients(s, in, below, b.gradients, u);
        below += b.gradients;
        flat(b.optimizer, palette_.optimizer, false);
        flat(b.buffers * extra, buffers_color(), false);
        flat(b.reserve * extra, palette_.panel, true);
        add_peaks(s, below, u);
        add_logits_label(s, t, below, u);
    }
    // The first micro-batch's logits and loss named beside its tip while the line about them is
    // spoken: at the chart's scale their band is a sliver.
    void add_logits_label(Scene& s, double t, double below, double u) const {
        const double alpha = logits_label_.at(t);
        const auto first = std::find_if(bands_.begin(), bands_.end(),
                                        [](const StepBands& b) { return b.logits > 0; });
        if (alpha <= 0 || first == bands_.end()) return;
        const std::size_t i = std::size_t(first - bands_.begin());
        if (i + 1 >= breaks_.size() || breaks_[i] >= u) return;
        const double y = y_of(below + first->activations + first->logits);
        s.add(Text{x_of(breaks_[i + 1]) + kLevelGap, y - kLevelGap,
                   tr("logits and loss {bytes}",
                      {{"bytes", format_bytes(stage_.terms.logits.value, locale_)}}),
                   kTerm, logits_color()},
              alpha);
    }
    // The gradient buffer: allocated all step (faint), filled to the share holding sums.
    void add_gradients(Scene& s, double in, double below, double bytes, double u) const {
        const double top = y_of(below + bytes), bottom = y_of(below);
        s.add(Rect{kChart.x, top, kChart.w, bottom - top, 0, with_alpha(palette_.gradients, 0.3)},
              in);
        // Runs of equal fill as one rectangle each: no seams between neighbours.
        for (std::size_t i = 0; i + 1 < breaks_.size() && breaks_[i] < u;) {
            const double f = bands_[i].gradients_filled;
            std::size_t j = i + 1;
            while (j + 1 < breaks_.size() && breaks_[j] < u && bands_[j].gradients_filled == f) ++j;
            const double a = x_of(breaks_[i]), e = x_of(std::min(u, breaks_[j]));
            if (f > 0)
                s.add(Rect{a, bottom - f * (bottom - top), e - a, f * (bottom - top), 0,
                           palette_.gradients},
                      in);
            i = j;
        }
    }
    // Activations as a staircase over what stays allocated, the logits on top at each peak.
    void add_peaks(Scene& s, double below, double u) const {
        Path acts{{}, true, palette_.activations};
        acts.points.push_back({kChart.x, y_of(below)});
        for (std::size_t i = 0; i + 1 < breaks_.size() && breaks_[i] < u; ++i) {
            const StepBands& b = bands_[i];
            const double a = x_of(breaks_[i]), e = x_of(std::min(u, breaks_[i + 1]));
            acts.points.push_back({a, y_of(below + b.activations)});
            acts.points.push_back({e, y_of(below + b.activations)});
            if (b.logits > 0)
                s.add(Rect{a, y_of(below + b.activations + b.logits), e - a,
                           y_of(below + b.activations) - y_of(below + b.activations + b.logits), 0,
                           logits_color()});
        }
        acts.points.push_back({acts.points.back().x, y_of(below)});
        if (acts.points.size() > 3) s.add(acts);
    }

    // The card's capacity (dashed), the film's figure (muted) and the peak, each labelled right of
    // the chart, clear of the bands and peaks that cross the lines: the higher of two close levels
    // above its line, the lower below.
    void add_lines(Scene& s, double t) const {
        const double in = states_in_.at(t), peak = peak_in_.at(t);
        const engine::PerGpu& g = memory();
        const double cap = g.capacity.value, top = g.expected.total.value;
        const auto level = [&](double bytes, Color c, std::string label, double alpha, bool above) {
            const double y = y_of(bytes);
            s.add(Line{{kChart.x, y}, {kChart.right(), y}, c, 2, true}, alpha);
            s.add(Text{kChart.right() + kLevelGap, above ? y - kLevelGap / 2 : y + kLevelGap + 12,
                       std::move(label), kTerm, c},
                  alpha);
        };
        level(cap, palette_.text, tr("capacity {bytes}", {{"bytes", format_bytes(cap, locale_)}}),
              in, cap >= top);
        level(g.total.value, palette_.muted,
              tr("on paper {bytes}", {{"bytes", format_bytes(g.total.value, locale_)}}), in, true);
        level(top, palette_.highlight, tr("peak {bytes}", {{"bytes", format_bytes(top, locale_)}}),
              peak, top > cap);
    }

    // The model states' colours under the chart; the table's rows are the key to the rest.
    void add_key(Scene& s, double t) const {
        const std::vector<LegendEntry> states{{tr("Weights"), palette_.weights},
                                              {tr("Gradients"), palette_.gradients},
                                              {tr("Optimizer state"), palette_.optimizer}};
        add_legend(s, palette_, metrics_, kChart.x, kKeyTop, states, states_in_.at(t));
    }
    // The colour a table row is drawn in on the chart (none for the model states: the key).
    std::optional<LegendEntry> swatch(int row) const {
        switch (row) {
            case kActs:
                return LegendEntry{"", palette_.activations};
            case kLogits:
                return LegendEntry{"", logits_color()};
            case kBuffers:
                return LegendEntry{"", buffers_color()};
            case kReserve:
                return LegendEntry{"", palette_.muted, true};
            case kContext:
                return LegendEntry{"", palette_.grid};
            default:
                return std::nullopt;
        }
    }
    void add_swatch(Scene& s, int row, double baseline, double alpha) const {
        const auto sw = swatch(row);
        if (!sw) return;
        Rect r{kTableX - kSwatchGap - kSwatch,          baseline - kSwatch, kSwatch, kSwatch, 3,
               sw->hatched ? palette_.panel : sw->color};
        if (sw->hatched) r.hatch = sw->color;
        s.add(r, alpha);
    }

    // --- the table ---------------------------------------------------------------------------
    // Each term on paper (the model states and activations the film teaches) and as expected.
    void add_table(Scene& s, double t) const {
        const double in = states_in_.at(t), peak = peak_in_.at(t);
        if (in <= 0) return;
        const engine::PerGpu& g = memory();
        const engine::PeakTerms& e = stage_.terms;
        const std::array<double, kTermRows> paper{
            (g.weights + g.gradients + g.optimizer).value, g.activations.value, 0, 0, 0, 0};
        const std::array<double, kTermRows> expected{
            (e.weights + e.gradients + e.optimizer + e.grad_accum).value,
            e.activations.value,
            e.logits.value,
            (e.dp_buckets + e.param_gather + e.tp_gather).value,
            e.reserve.value,
            e.context.value};
        s.add(Text{kPaperRight, kTableTop, tr("on paper"), kHeader, palette_.muted, Align::right},
              in);
        s.add(
            Text{kExpectedRight, kTableTop, tr("expected"), kHeader, palette_.muted, Align::right},
            peak);
        double y = kTableTop + kRowPitch;
        for (int r = 0; r < kTermRows; ++r, y += kRowPitch) {
            s.add(Text{kTableX, y, tr(kTermName[r]), kTerm, palette_.text}, r < 2 ? in : peak);
            add_swatch(s, r, y, r < 2 ? in : peak);
            if (r < 2)
                s.add(Text{kPaperRight, y, format_bytes(paper[r], locale_), kFigure, palette_.text,
                           Align::right},
                      in);
            s.add(Text{kExpectedRight, y, format_bytes(expected[r], locale_), kFigure,
                       palette_.text, Align::right},
                  peak);
        }
        y += kTotalGap - kRowPitch;
        s.add(Line{{kTableX, y}, {kExpectedRight, y}, palette_.grid, 2}, in);
        y += kRowPitch;
        s.add(Text{kTableX, y, tr("Total"), kTotal, palette_.text}, in);
        s.add(Text{kPaperRight, y, format_bytes(g.total.value, locale_), kTotal, palette_.text,
                   Align::right},
              in);
        s.add(Text{kExpectedRight, y, format_bytes(g.expected.total.value, locale_), kTotal,
                   palette_.highlight, Align::right},
              peak);
        add_verdict(s, y + kRowPitch, peak);
    }
    // Whether the peak fits the card, and by how much either way.
    void add_verdict(Scene& s, double y, double alpha) const {
        const engine::PerGpu& g = memory();
        const double spare = g.capacity.value - g.expected.total.value;
        const std::string text = spare >= 0 ? tr("{bytes} to spare on the card",
                                                 {{"bytes", format_bytes(spare, locale_)}})
                                            : over_by(locale_, -spare);
        s.add(Text{kExpectedRight, y, text, kTerm, spare >= 0 ? palette_.muted : palette_.highlight,
                   Align::right},
              alpha);
    }

    const Fade states_in_, peak_in_, logits_label_;
    const engine::StagePeak stage_;
    const int micro_batches_;
    std::vector<Sweep> sweeps_;
    std::vector<double> breaks_;    // where the allocation changes (step units)
    std::vector<StepBands> bands_;  // what is allocated from each break to the next, built once
    double top_ = 1;                // bytes at the chart's top
};

const KindRegistrar registrar{{
    .name = "step_memory",
    .default_duration = kDefaultDuration,
    .settable = {},
    .make = make_of<StepMemoryChapter>,
    .cannot_draw = cannot_draw,
    .shows = "one GPU's memory through a training step as a profiler draws it: model states, "
             "activations stacked layer by layer in the forward pass, the logits and loss at "
             "its end, the backward freeing them and filling the gradients, the optimizer step; "
             "the film's on-paper figure beside the expected peak, each extra term named and "
             "risen in under the activations as the peak is",
    .sample = "model: 7B\n"
              "parallel: {gpus: 8, zero: 1}\n"
              "training: {micro_batches: 4}\n"
              "cluster: {gpu: h100-sxm-80gb, gpus_per_node: 8, nodes: 1}\n",
    .goldens = {{"chapter_step_memory", 25, "the step drawn, on paper beside the expected peak"}},
    .phases = {{"states", kStatesAt, "what stays allocated, and the figure on paper"},
               {"forward", kForwardAt, "the forward pass stacks up activations"},
               {"loss", kLossAt, "the logits and the loss at its end, named at its tip"},
               {"backward", kBackwardAt, "the backward frees them and fills the gradients"},
               {"step", kStepAt, "every micro-batch, then the optimizer step"},
               {"peak", kPeakAt,
                "the peak beside the figure on paper, each term named; what paper leaves out "
                "rises in under the activations and the panel gives the peak"}},
    // The peak, and so whether it fits, from the line that names it (its panel's "—" before).
    .facts = {.rows = {rows::memory, rows::activations, rows::fits},
              .formulas = {formulas::memory},
              .later_phase = "peak",
              .later_rows = {rows::fits.key},
              .later_formulas = {peak_formula}},
}};

}  // namespace

}  // namespace story
