// `zero_bubble`: the zero-bubble pipeline schedules (Qi et al. 2023; DeepSeek-V3's DualPipe) on
// the engine's slot lists. 1F1B's timeline first, then each whole backward splits into B (the
// input's gradient) and W (the weights'); a `set:` of the schedule slides every slot from its
// place in the old schedule to its place in the new one, so the Ws visibly move into the bubble.
// Beside each GPU: its idle share of its own span, and its peak activations held, in GB.
#include <algorithm>
#include <cmath>

#include "engine/memory.hpp"
#include "story/chapter_base.hpp"
#include "story/draw/draw.hpp"
#include "story/format.hpp"
#include "story/pipeline_timeline.hpp"

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
constexpr double kReadoutGap = 10;

// One state: the schedule laid out, and per stage the engine's idle share and peak activations.
struct Drawn {
    LaidOutSchedule laid;
    std::vector<double> idle;   // idle_share per stage
    std::vector<double> held;   // max_in_flight per stage
    std::vector<double> bytes;  // activations_held at that peak
};

Drawn draw_state(const engine::Config& c) {
    Drawn d{lay_out(schedule_of(c), kTimeline), {}, {}, {}};
    const engine::PipelineSchedule& s = d.laid.schedule;
    for (int st = 0; st < s.stages; ++st) {
        d.idle.push_back(s.idle_share(st));
        d.held.push_back(s.max_in_flight(st));
        d.bytes.push_back(engine::activations_held(c, s.max_in_flight(st)).value);
    }
    return d;
}

// Stage i's value in a state, or 0 for a stage it does not have (pp changing).
double stage_value(const std::vector<double>& v, int i) { return i < int(v.size()) ? v[i] : 0; }

class ZeroBubbleChapter final : public ChapterBase {
  public:
    ZeroBubbleChapter(const ChapterSpec& spec, const Video& video, const TextMetrics& metrics)
        : ChapterBase(spec, video, metrics),
          view_(palette_, metrics_, kTimeline),
          rows_in_{at(kRowsAt)},
          legend_in_(Fade::in(at(kRowsAt))),
          idle_in_(Fade::in(at(kIdleAt))),
          readout_in_(Fade::in(at(kReadoutAt))),
          held_in_(Fade::in(at(kHeldAt))) {
        for (const engine::Config& c : timeline_.states()) {
            drawn_.push_back(draw_state(c));
            measured_.push_back(drawn_.back().laid.schedule.bubble_share());
        }
        first_peak_ = drawn_.front().bytes.front();
    }

    Scene scene_at(double t) const override {
        Scene s = blank();
        const Morph m = timeline_.morph_at(t);
        const TimelineFrame f{
            &drawn_[m.from].laid, &drawn_[m.to].laid, m.u,
            sweep_x(t),           split(t),           slot_label_alpha(spec_.beats, t)};
        add_header(s, t, m, f);
        view_.add_rows(s, f, rows_in_, t);
        view_.add_axis(s, legend_in_.at(t));
        view_.add_slots(s, f);
        view_.add_playhead(s, sweep(t), sweep_x(t));
        add_columns(s, t, m, f);
        add_readout(s, t, m);
        add_frame(s, t);
        return s;
    }

  private:
    double sweep(double t) const { return progress(t, at(kSweepAt), at(kSweepFor), Ease::linear); }
    double sweep_x(double t) const { return lerp(kTimeline.x, kTimeline.right(), sweep(t)); }
    // How far the whole backwards have split into their B and W halves.
    double split(double t) const { return Fade::in(at(kSplitAt), kSplitFor).at(t); }

    const engine::Config& state(const Morph& m) const { return timeline_.states()[m.to]; }

    // The legend names B and W once the backward has split (or the schedule splits it).
    void add_header(Scene& s, double t, const Morph& m, const TimelineFrame& f) const {
        const double alpha = legend_in_.at(t);
        const engine::Schedule kind = state(m).training.schedule;
        const bool split = split_backward(kind) || f.split >= 0.5;
        view_.add_pass_legend(s, kLegendX, kHeaderBaseline, split, alpha);
        s.add(Text{kTimeline.right(), kHeaderBaseline, "Schedule: " + schedule_title(kind),
                   weighted(style_of(Role::label), Weight::semibold), palette_.text, Align::right},
              alpha);
    }

    void add_column_head(Scene& s, double right, const std::string& head, double alpha) const {
        s.add(Text{right, kHeaderBaseline, head, weighted(style_of(Role::label), Weight::semibold),
                   palette_.text, Align::right},
              alpha);
    }

    // Per stage, right-aligned beside its row: idle share, micro-batches held, their bytes.
    void add_columns(Scene& s, double t, const Morph& m, const TimelineFrame& f) const {
        const double idle_alpha = idle_in_.at(t), held_alpha = held_in_.at(t);
        add_column_head(s, kIdleRight, "Idle share", idle_alpha);
        add_column_head(s, kHeldRight, "Peak held", held_alpha);
        add_column_head(s, kBytesRight, "Activations", held_alpha);
        const Drawn &a = drawn_[m.from], &b = drawn_[m.to];
        const int rows = int(std::max(a.idle.size(), b.idle.size()));
        for (int i = 0; i < rows; ++i) {
            const double row = PipelineTimeline::row_alpha(f, rows_in_, t, i);
            const double y = PipelineTimeline::row_at(f, i).cy();
            const auto value = [&](const std::vector<double>& from, const std::vector<double>& to) {
                return lerp(stage_value(from, i), stage_value(to, i), m.u);
            };
            add_cell(s, kIdleRight, y, format_percent(value(a.idle, b.idle)), palette_.text,
                     row * idle_alpha);
            const int held = std::lround(value(a.held, b.held));
            add_cell(s, kHeldRight, y, format_int(held), palette_.activations, row * held_alpha);
            add_cell(s, kBytesRight, y, format_bytes(value(a.bytes, b.bytes)), palette_.activations,
                     row * held_alpha);
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
        const engine::Config& a = timeline_.states()[m.from];
        const engine::Config& b = state(m);
        const std::string p = format_int(count_between(a.layout.pp, b.layout.pp, m.u));
        const std::string mb =
            format_int(count_between(a.training.micro_batches, b.training.micro_batches, m.u));
        const double bubble =
            figure_at(t, [](const engine::Report& r) { return r.bubble_fraction; });
        const std::string formula =
            bubble_formula(b.training.schedule, p, mb, "1") + " = " + format_percent(bubble);
        const double width = kBytesRight - kTimeline.x;
        TextStyle style = tabular(weighted(style_of(Role::body), Weight::semibold));
        style.size = fit_size(metrics_, formula, style, width);
        TextColumn col(metrics_, kTimeline.x, view_.below_axis() + kReadoutGap);
        col.line(formula, style, palette_.text)
            .line("Measured on this timeline: the most idle GPU waits " +
                      format_percent(value_at(t, measured_)) + " of its own span",
                  tabular(style_of(Role::note)), palette_.muted);
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
        std::string line = "GPU 0 holds " + format_bytes(now) + " of activations at its peak";
        const engine::Schedule first = timeline_.states().front().training.schedule;
        if (state(m).training.schedule != first)
            line += " (" + schedule_title(first) + ": " + format_bytes(first_peak_) + ")";
        return line;
    }

    const PipelineTimeline view_;
    const Stagger rows_in_;
    const Fade legend_in_, idle_in_, readout_in_, held_in_;
    std::vector<Drawn> drawn_;
    std::vector<double> measured_;  // bubble_share per state
    double first_peak_ = 0;         // GPU 0's activations at its peak in the first state
};

std::unique_ptr<Chapter> make(const ChapterSpec& spec, const Video& video,
                              const TextMetrics& metrics) {
    return std::make_unique<ZeroBubbleChapter>(spec, video, metrics);
}

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

const KindRegistrar registrar{
    {"zero_bubble", kDefaultDuration, {"schedule", "pp", "micro_batches"}, make, cannot_draw}};

}  // namespace

}  // namespace story
