// `zero_bubble`: the zero-bubble pipeline schedules (Qi et al. 2023; DeepSeek-V3's DualPipe) on
// the engine's slot lists. 1F1B's timeline first, then each whole backward splits into B (the
// input's gradient) and W (the weights'); a `set:` of the schedule slides every slot from its
// place in the old schedule to its place in the new one, so the Ws visibly move into the bubble.
// Beside each GPU: its idle share of its own span, and its peak activations held, in GB.
#include <algorithm>
#include <cmath>

#include "engine/memory.hpp"
#include "story/chapter/timeline_chapter.hpp"
#include "story/draw/draw.hpp"
#include "story/text/format.hpp"

namespace story {

namespace {

constexpr double kDefaultDuration = 36;
constexpr int kMaxStages = 8, kMaxMicroBatches = 32;
// Choreography, in seconds of the default duration.
constexpr double kRowsAt = 0.4, kSweepAt = 1.0, kSweepFor = 4.5, kIdleAt = 5.8, kReadoutAt = 6.4;
constexpr double kHeldAt = 8.0, kSplitAt = 10.0, kSplitFor = 0.8;

// The timeline, then three columns beside it (idle share, micro-batches held, their memory); the
// legend and the column headers on one baseline above, the read-outs under the time axis.
constexpr Box kTimeline{250, 340, 1300 - 250, 360};
constexpr double kHeaderBaseline = 300, kLegendX = frame::kLeft;
constexpr double kIdleRight = 1470, kHeldRight = 1632, kBytesRight = frame::kRight;

// Per stage of one state: the engine's idle share, peak micro-batches held, and their bytes.
struct StageFigures {
    std::vector<double> idle, held, bytes;
};

StageFigures figures_of(const engine::Config& c, const engine::PipelineSchedule& s) {
    StageFigures f;
    for (int st = 0; st < s.stages; ++st) {
        f.idle.push_back(s.idle_share(st));
        f.held.push_back(s.max_in_flight(st));
        f.bytes.push_back(engine::activations_held(c, s.max_in_flight(st)).value);
    }
    return f;
}

// Stage i's value in a state, or 0 for a stage it does not have (pp changing).
double stage_value(const std::vector<double>& v, int i) { return i < int(v.size()) ? v[i] : 0; }

class ZeroBubbleChapter final : public TimelineChapter {
  public:
    ZeroBubbleChapter(const ChapterSpec& spec, const Video& video, const TextMetrics& metrics)
        : TimelineChapter(spec, video, metrics, kTimeline, {kRowsAt, kSweepAt, kSweepFor}),
          idle_in_(Fade::in(at(kIdleAt))),
          readout_in_(Fade::in(at(kReadoutAt))),
          held_in_(Fade::in(at(kHeldAt))) {
        for (std::size_t k = 0; k < timeline_.states().size(); ++k)
            figures_.push_back(figures_of(timeline_.states()[k], laid(int(k)).schedule));
    }

    Scene scene_at(double t) const override {
        Scene s = blank();
        const Morph m = timeline_.morph_at(t);
        const TimelineFrame f = frame_at(t, m, split(t));
        // The legend names B and W once the backward has split (or the schedule splits it).
        add_timeline(s, t, f, kLegendX, kHeaderBaseline,
                     split_backward(state(m).training.schedule) || f.split >= 0.5);
        add_columns(s, t, m, f);
        add_readout(s, t, m);
        add_frame(s, t);
        return s;
    }

  private:
    // How far the whole backwards have split into their B and W halves.
    double split(double t) const { return Fade::in(at(kSplitAt), kSplitFor).at(t); }

    void add_column_head(Scene& s, double right, const std::string& head, double alpha) const {
        s.add(Text{right, kHeaderBaseline, head, weighted(style_of(Role::label), Weight::semibold),
                   palette_.text, Align::right},
              alpha);
    }

    // Per stage, right-aligned beside its row: idle share, micro-batches held, their bytes.
    void add_columns(Scene& s, double t, const Morph& m, const TimelineFrame& f) const {
        const double idle_alpha = idle_in_.at(t), held_alpha = held_in_.at(t);
        add_column_head(s, kIdleRight, tr("Idle share"), idle_alpha);
        add_column_head(s, kHeldRight, tr("Peak held"), held_alpha);
        add_column_head(s, kBytesRight, tr("Activations"), held_alpha);
        const StageFigures &a = figures_[m.from], &b = figures_[m.to], &shown = figures_[m.shown()];
        const int rows = int(std::max(a.idle.size(), b.idle.size()));
        for (int i = 0; i < rows; ++i) {
            const double row = PipelineTimeline::row_alpha(f, rows_in_, t, i);
            const double y = PipelineTimeline::row_at(f, i).cy();
            add_cell(s, kIdleRight, y, format_percent(stage_value(shown.idle, i), locale_),
                     palette_.text, row * idle_alpha);
            const int held = std::lround(stage_value(shown.held, i));
            add_cell(s, kHeldRight, y, format_int(held, locale_), palette_.activations,
                     row * held_alpha);
            add_cell(s, kBytesRight, y, format_bytes(stage_value(shown.bytes, i), locale_),
                     palette_.activations, row * held_alpha);
        }
    }

    void add_cell(Scene& s, double right, double y, const std::string& text, Color color,
                  double alpha) const {
        if (alpha <= 0) return;
        const TextStyle style = style_of(Role::figure);
        s.add(Text{right, centred_baseline(metrics_, text, style, y), text, style, color,
                   Align::right},
              alpha);
    }

    // Under the time axis: the bubble by its formula, as measured, and what the first GPU holds.
    void add_readout(Scene& s, double t, const Morph& m) const {
        const double alpha = readout_in_.at(t);
        if (alpha <= 0) return;
        const double width = kBytesRight - kTimeline.x;
        const TextColumn col =
            bubble_readout(t, m, width,
                           tr("Measured on this timeline: the most idle GPU waits {percent} of its "
                              "own span",
                              {{"percent", format_percent(measured_bubble(m), locale_)}}));
        col.add_to(s, alpha);
        const std::string held = held_line(t, m);
        TextStyle note = tabular(style_of(Role::note));
        note.size = fit_size(metrics_, held, note, width);
        TextColumn(metrics_, kTimeline.x, col.bottom())
            .line(held, note, palette_.activations)
            .add_to(s, held_in_.at(t));
    }

    // GPU 0's peak activations (engine::analyze's per-GPU figure), and the first state's beside
    // them once the schedule differs: what the schedule costs in memory.
    std::string held_line(double t, const Morph& m) const {
        const double now =
            figure_at(t, [](const engine::Report& r) { return r.per_gpu.activations.value; });
        const std::string bytes = format_bytes(now, locale_);
        const engine::Schedule first = timeline_.states().front().training.schedule;
        if (state(m).training.schedule == first)
            return tr("GPU 0 holds {bytes} of activations at its peak", {{"bytes", bytes}});
        return tr("GPU 0 holds {bytes} of activations at its peak ({schedule}: {first})",
                  {{"bytes", bytes},
                   {"schedule", schedule_title(locale_, first)},
                   {"first", format_bytes(figures_.front().bytes.front(), locale_)}});
    }

    const Fade idle_in_, readout_in_, held_in_;
    std::vector<StageFigures> figures_;  // per state
};

std::optional<std::string> cannot_draw(const engine::Config& c) {
    if (c.training.schedule == engine::Schedule::interleaved)
        return std::string(
            "zero_bubble draws one stage per GPU; the interleaved schedule is "
            "pipeline_bubble's");
    if (c.layout.pp > kMaxStages)
        return "zero_bubble draws at most " + std::to_string(kMaxStages) +
               " pipeline stages (pp), got " + std::to_string(c.layout.pp);
    if (c.training.micro_batches > kMaxMicroBatches)
        return "zero_bubble draws at most " + std::to_string(kMaxMicroBatches) +
               " micro-batches, got " + std::to_string(c.training.micro_batches);
    return std::nullopt;
}

const KindRegistrar registrar{{
    .name = "zero_bubble",
    .default_duration = kDefaultDuration,
    .settable = {"schedule", "pp", "micro_batches"},
    .make = make_of<ZeroBubbleChapter>,
    .cannot_draw = cannot_draw,
    .shows = "the zero-bubble schedules on the engine's slot lists, on the same timeline as "
             "`pipeline_bubble`: 1F1B first, its whole backwards splitting into B (input "
             "gradient) and W (weight gradient) at 10 s of the default length (scaled with "
             "it), then on each `set:` of the schedule every slot slides from its place in "
             "the old schedule to its place in the new one (matched by GPU, micro-batch and "
             "pass; a whole backward's halves become its B and W), so the Ws are seen "
             "moving into the bubble; beside each GPU its idle share of its own span, its "
             "peak micro-batches held and their activations in GB; under the timeline the "
             "schedule's bubble formula, the bubble measured on the slots and GPU 0's peak "
             "activations beside the first schedule's. At most 8 stages and 32 "
             "micro-batches; not the interleaved schedule (that is `pipeline_bubble`'s)",
    .set_note = "the schedule one of gpipe, 1f1b, zb-h1, zb-h2, dualpipe",
    .set_values = {{"schedule", {"zb-h1", "zb-h2", "dualpipe"}}},
    .goldens = {{"chapter_zero_bubble", 25, "ZB-H2 settled, the Ws in the bubble"}},
    .phases = {{"rows", kRowsAt, "one row per stage, time to the right"},
               {"sweep", kSweepAt, "the playhead sweeps the micro-batches through"},
               {"idle", kIdleAt, "each GPU's idle share of its own span"},
               {"readout", kReadoutAt, "the bubble, by its formula and as measured"},
               {"held", kHeldAt, "the micro-batches each stage holds"},
               {"split", kSplitAt, "each backward split into B and W"}},
    .facts = {.rows = {rows::pp, rows::bubble, rows::in_flight, rows::activations},
              .formulas = {formulas::bubble}},
}};

}  // namespace

}  // namespace story
