// `pipeline_bubble`: the pipeline as a stage-by-time timeline drawn exactly from the engine's
// schedule (GPipe, 1F1B, interleaved, ZB-H1, ZB-H2, DualPipe): slots appear as a playhead sweeps
// right, idle time is hatched, the bubble is read out by its formula beside the fraction measured
// on the slots, and each stage shows the activations it holds. `set:` slides the slots to the new
// schedule.
#include <algorithm>
#include <cmath>

#include "engine/pipeline.hpp"
#include "story/chapter/timeline_chapter.hpp"
#include "story/draw/draw.hpp"
#include "story/text/format.hpp"
#include "story/vocab/loaf.hpp"

namespace story {

namespace {

constexpr double kDefaultDuration = 30;
constexpr long long kMaxSlots = 4096;  // pp x micro_batches x chunks forward slots drawn
// Choreography, in seconds of the default duration.
constexpr double kRowsAt = 0.4, kSweepAt = 1.2, kSweepFor = 6.0, kReadoutAt = 7.4, kFlightAt = 9.0;
constexpr double kRuleAt = 20.0;
// Timeline box: rows of stages, time to the right; the in-flight column beside it, and the
// legend and headers on one baseline above them.
constexpr Box kTimeline{250, 340, 1490 - 250, 400};
constexpr double kHeaderBaseline = 300;
constexpr double kFlightX = 1530, kFlightRight = frame::kRight;
constexpr double kSquaresAfter = 56, kSquareMax = 22, kSquareGap = 3;
constexpr double kAxisLabelGap = 8, kRuleGap = 6;
// Each row's loaf (story/vocab/loaf.hpp) in the left margin, kLoafW wide and kLoafPad inside the
// row, of at least kLoafSlices slices each kLoafMinSlice px tall or more (else none is drawn).
constexpr double kLoafW = 44, kLoafPad = 6, kLoafMinSlice = 4;
constexpr int kLoafSlices = 8;

// Activations per slot-chunk in whole stages: an interleaved chunk is 1/v of a stage; DualPipe's
// two chunks are two whole stages (DeepSeek-V3 report, Table 2).
int parts_per_stage(const engine::PipelineSchedule& s) {
    return s.kind == engine::Schedule::interleaved ? s.chunks : 1;
}

class PipelineChapter final : public TimelineChapter {
  public:
    PipelineChapter(const ChapterSpec& spec, const Video& video, const TextMetrics& metrics)
        : TimelineChapter(spec, video, metrics, kTimeline, {kRowsAt, kSweepAt, kSweepFor}),
          readout_in_(Fade::in(at(kReadoutAt))),
          flight_in_(Fade::in(at(kFlightAt))),
          rule_in_(Fade::in(rule_at())) {}

    Scene scene_at(double t) const override {
        Scene s = blank();
        const Morph m = timeline_.morph_at(t);
        add_timeline(s, t, frame_at(t, m), kTimeline.x, kHeaderBaseline,
                     split_backward(state(m).training.schedule));
        add_in_flight(s, t, m);
        add_loaves(s, t, m);
        add_readout(s, t, m);
        add_frame(s, t);
        return s;
    }

  private:
    // Left of each row's name, the model's loaf cut into the pipeline's consecutive chunks, the
    // row's own held (an interleaved stage holds several, apart). DualPipe's stages hold two
    // mirrored chunks each and are not drawn.
    void add_loaves(Scene& s, double t, const Morph& m) const {
        const engine::Config& c = state(m);
        if (c.training.schedule == engine::Schedule::dualpipe) return;
        const int p = c.layout.pp, v = parts_per_stage(laid(m.shown()).schedule);
        const int slices = p * v * std::max(1, kLoafSlices / (p * v));
        for (int i = 0; i < p && i < static_cast<int>(laid(m.to).rows.size()); ++i) {
            const Box& r = laid(m.to).rows[i];
            const Box loaf{frame::kLeft, r.y + kLoafPad, kLoafW, r.h - 2 * kLoafPad};
            if (loaf.h < slices * kLoafMinSlice) return;
            add_loaf_inset(
                s, palette_, loaf, slices, 1,
                [&](int g, int) { return loaf_stage(g, slices, p, v) == i; }, rows_in_.at(t, i));
        }
    }

    // Activations each stage holds at its peak: one square per micro-batch (a chunk is 1/v of one).
    void add_in_flight(Scene& s, double t, const Morph& m) const {
        const double alpha = flight_in_.at(t);
        if (alpha <= 0) return;
        const std::string head = tr("Micro-batches held");
        TextStyle style = weighted(style_of(Role::label), Weight::semibold);
        style.size = fit_size(metrics_, head, style, kFlightRight - kFlightX);
        s.add(Text{kFlightX, kHeaderBaseline, head, style, palette_.text}, alpha);
        const engine::PipelineSchedule& b = laid(m.to).schedule;
        const engine::PipelineSchedule& shown = laid(m.shown()).schedule;
        const int v = parts_per_stage(shown);
        const TextStyle count = style_of(Role::figure);
        for (int i = 0; i < b.stages; ++i) {
            const Box& r = laid(m.to).rows[i];
            const double n = i < shown.stages ? shown.max_in_flight(i) / double(v) : 0;
            add_squares(s, r, n, alpha);
            const std::string text =
                v > 1 ? format_sig3(n, locale_) : format_int(std::lround(n), locale_);
            s.add(Text{kFlightX, centred_baseline(metrics_, text, count, r.cy()), text, count,
                       palette_.activations},
                  alpha);
        }
        // Interleaved stages hold chunks: counted here in whole stages' worth of activations.
        if (v > 1)
            TextColumn(metrics_, kFlightX, view_.axis_y() + kAxisLabelGap)
                .line(tr("a chunk is 1/{v} of a stage", {{"v", v}}), Role::small, palette_.muted)
                .add_to(s, alpha * m.u);
    }

    // n micro-batches' activations as squares, the last one partial while the count morphs.
    void add_squares(Scene& s, const Box& r, double n, double alpha) const {
        const double left = kFlightX + kSquaresAfter, room = kFlightRight - left;
        const double side =
            std::min({kSquareMax, r.h * 0.5, room / std::max(1.0, std::ceil(n)) - kSquareGap});
        for (int k = 0; k < std::ceil(n - 1e-9); ++k) {
            const double part = std::min(1.0, n - k);
            s.add(filled(Box{left + k * (side + kSquareGap), r.cy() - side / 2, side * part, side},
                         2, palette_.activations),
                  alpha);
        }
    }

    // Under the time axis: the bubble by the formula, with the engine's numbers, and as measured.
    void add_readout(Scene& s, double t, const Morph& m) const {
        const double alpha = readout_in_.at(t);
        if (alpha <= 0) return;
        const bool split = split_backward(state(m).training.schedule);
        const TextColumn readout = bubble_readout(
            t, m, kTimeline.w,
            tr(split ? N_("Measured on this timeline: {percent} of a GPU's own span idle")
                     : N_("Measured on this timeline: {percent} of GPU time idle"),
               {{"percent", format_percent(measured_bubble(m), locale_)}}));
        readout.add_to(s, alpha);
        add_rule(s, t, m, readout.bottom(), alpha * rule_in_.at(t));
    }

    // When the rule enters: its time, or where a `set:` morphs then, that morph's halfway (the rule
    // states the new M, never the old one for a moment).
    double rule_at() const {
        double t = at(kRuleAt);
        for (int k = 1; k < static_cast<int>(timeline_.states().size()); ++k)
            if (t >= timeline_.state_start(k) &&
                t < timeline_.state_start(k) + timeline_.state_over(k))
                t = timeline_.state_start(k) + timeline_.state_over(k) / 2;
        return t;
    }

    // GPipe's rule of thumb (Huang et al. 2019): with M >= 4K micro-batches for K stages the
    // bubble is small. Under the readout, where the bubble is (p-1)/(m+p-1) (GPipe, 1F1B): the
    // rule with the state's M and K, and the bubble the engine gives for it.
    void add_rule(Scene& s, double t, const Morph& m, double top, double alpha) const {
        const engine::Config& c = state(m);
        const engine::Schedule kind = c.training.schedule;
        if (alpha <= 0 ||
            (kind != engine::Schedule::gpipe && kind != engine::Schedule::one_f_one_b))
            return;
        const int mb = c.training.micro_batches, k = c.layout.pp;
        const double bubble =
            figure_at(t, [](const engine::Report& r) { return r.bubble_fraction; });
        const std::string rule =
            tr(mb >= 4 * k ? N_("GPipe's rule M ≥ 4K holds: M = {m} ≥ 4 × {k} stages, so the "
                                "bubble is down to {bubble}")
                           : N_("GPipe's rule M ≥ 4K: M = {m} < 4 × {k} stages, so the bubble is "
                                "still {bubble}"),
               {{"m", mb}, {"k", k}, {"bubble", format_percent(bubble, locale_)}});
        TextStyle style = tabular(weighted(style_of(Role::note), Weight::semibold));
        style.size = fit_size(metrics_, rule, style, kTimeline.w);
        TextColumn(metrics_, kTimeline.x, top + kRuleGap)
            .line(rule, style, palette_.highlight)
            .add_to(s, alpha);
    }

    const Fade readout_in_, flight_in_, rule_in_;
};

std::optional<std::string> cannot_draw(const engine::Config& c) {
    const int v = c.training.schedule == engine::Schedule::interleaved ? c.training.chunks : 1;
    const long long slots = 1LL * c.layout.pp * c.training.micro_batches * v;
    if (slots <= kMaxSlots) return std::nullopt;
    return "pipeline_bubble draws at most " + std::to_string(kMaxSlots) +
           " slots (pp x micro_batches x chunks), got " + std::to_string(slots);
}

const KindRegistrar registrar{{
    .name = "pipeline_bubble",
    .default_duration = kDefaultDuration,
    .settable = {"pp", "micro_batches", "schedule", "chunks"},
    .make = make_of<PipelineChapter>,
    .cannot_draw = cannot_draw,
    .shows = "stages by time from the engine's GPipe, 1F1B, interleaved, ZB-H1, ZB-H2 or "
             "DualPipe slot list (a split backward's W in a paler shade than its B); idle "
             "slots hatched; the schedule's bubble formula with numbers and as measured on "
             "the timeline; GPipe's rule M >= 4K with the bubble it leaves; micro-batches held "
             "per stage; beside each stage the model's loaf cut into consecutive chunks, its "
             "own held",
    .goldens = {{"chapter_pipeline_bubble", 15, "the timeline with its bubble hatched"}},
    .phases = {{"rows", kRowsAt, "one row per stage, time to the right"},
               {"sweep", kSweepAt, "the playhead sweeps the micro-batches through"},
               {"readout", kReadoutAt, "the bubble, by its formula and as measured"},
               {"held", kFlightAt, "the micro-batches each stage holds"},
               {"rule", kRuleAt, "GPipe's rule M >= 4K with this M and K, and the bubble there"}},
    .facts = {.rows = {rows::pp, rows::bubble, rows::in_flight, rows::pp_sent},
              .formulas = {formulas::bubble}},
}};

}  // namespace

}  // namespace story
