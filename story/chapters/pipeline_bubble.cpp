// `pipeline_bubble`: the pipeline as a stage-by-time timeline drawn exactly from the engine's
// schedule (GPipe, 1F1B, interleaved, ZB-H1, ZB-H2, DualPipe): slots appear as a playhead sweeps
// right, idle time is hatched, the bubble is read out by its formula beside the fraction measured
// on the slots, and each stage shows the activations it holds. `set:` slides the slots to the new
// schedule.
#include <algorithm>
#include <cmath>

#include "engine/pipeline.hpp"
#include "story/chapter_base.hpp"
#include "story/draw/draw.hpp"
#include "story/format.hpp"
#include "story/pipeline_timeline.hpp"

namespace story {

namespace {

constexpr double kDefaultDuration = 30;
constexpr long long kMaxSlots = 4096;  // pp x micro_batches x chunks forward slots drawn
// Choreography, in seconds of the default duration.
constexpr double kRowsAt = 0.4, kSweepAt = 1.2, kSweepFor = 6.0, kReadoutAt = 7.4, kFlightAt = 9.0;
// Timeline box: rows of stages, time to the right; the in-flight column beside it, and the
// legend and headers on one baseline above them.
constexpr Box kTimeline{250, 340, 1490 - 250, 400};
constexpr double kHeaderBaseline = 300;
constexpr double kFlightX = 1530, kFlightRight = frame::kRight;
constexpr double kSquaresAfter = 56, kSquareMax = 22, kSquareGap = 3;
constexpr double kReadoutGap = 10, kAxisLabelGap = 8;

// Activations per slot-chunk in whole stages: an interleaved chunk is 1/v of a stage; DualPipe's
// two chunks are two whole stages (DeepSeek-V3 report, Table 2).
int parts_per_stage(const engine::PipelineSchedule& s) {
    return s.kind == engine::Schedule::interleaved ? s.chunks : 1;
}

// One state's schedule, measured and laid out once up front.
struct Drawn {
    LaidOutSchedule laid;
    std::vector<int> in_flight;  // per stage
};

Drawn draw_state(const engine::Config& c) {
    Drawn d{lay_out(schedule_of(c), kTimeline), {}};
    for (int st = 0; st < d.laid.schedule.stages; ++st)
        d.in_flight.push_back(d.laid.schedule.max_in_flight(st));
    return d;
}

class PipelineChapter final : public ChapterBase {
  public:
    PipelineChapter(const ChapterSpec& spec, const Video& video, const TextMetrics& metrics)
        : ChapterBase(spec, video, metrics),
          timeline_view_(palette_, metrics_, kTimeline),
          rows_in_{at(kRowsAt)},
          legend_in_(Fade::in(at(kRowsAt))),
          readout_in_(Fade::in(at(kReadoutAt))),
          flight_in_(Fade::in(at(kFlightAt))) {
        for (const engine::Config& c : timeline_.states()) {
            drawn_.push_back(draw_state(c));
            measured_.push_back(drawn_.back().laid.schedule.bubble_share());
        }
    }

    Scene scene_at(double t) const override {
        Scene s = blank();
        const Morph m = timeline_.morph_at(t);
        const TimelineFrame f{&drawn_[m.from].laid,
                              &drawn_[m.to].laid,
                              m.u,
                              sweep_x(t),
                              0,
                              slot_label_alpha(spec_.beats, t)};
        add_header(s, t, m);
        timeline_view_.add_rows(s, f, rows_in_, t);
        timeline_view_.add_axis(s, legend_in_.at(t));
        timeline_view_.add_slots(s, f);
        timeline_view_.add_playhead(s, sweep(t), sweep_x(t));
        add_in_flight(s, t, m);
        add_readout(s, t, m);
        add_frame(s, t);
        return s;
    }

  private:
    // Fraction of the timeline width the playhead has swept: constant speed.
    double sweep(double t) const { return progress(t, at(kSweepAt), at(kSweepFor), Ease::linear); }
    double sweep_x(double t) const { return lerp(kTimeline.x, kTimeline.right(), sweep(t)); }

    const engine::Config& state(const Morph& m) const { return timeline_.states()[m.to]; }

    void add_header(Scene& s, double t, const Morph& m) const {
        const double alpha = legend_in_.at(t);
        const engine::Schedule kind = state(m).training.schedule;
        timeline_view_.add_pass_legend(s, kTimeline.x, kHeaderBaseline, split_backward(kind),
                                       alpha);
        s.add(Text{kTimeline.right(), kHeaderBaseline, "Schedule: " + schedule_title(kind),
                   weighted(style_of(Role::label), Weight::semibold), palette_.text, Align::right},
              alpha);
    }

    // Activations each stage holds at its peak: one square per micro-batch (a chunk is 1/v of one).
    void add_in_flight(Scene& s, double t, const Morph& m) const {
        const double alpha = flight_in_.at(t);
        if (alpha <= 0) return;
        const char* head = "Micro-batches held";
        TextStyle style = weighted(style_of(Role::label), Weight::semibold);
        style.size = fit_size(metrics_, head, style, kFlightRight - kFlightX);
        s.add(Text{kFlightX, kHeaderBaseline, head, style, palette_.text}, alpha);
        const Drawn& a = drawn_[m.from];
        const Drawn& b = drawn_[m.to];
        const int v = parts_per_stage(b.laid.schedule);
        const TextStyle count = style_of(Role::figure);
        for (int i = 0; i < b.laid.schedule.stages; ++i) {
            const Box& r = b.laid.rows[i];
            const double from = i < a.laid.schedule.stages
                                    ? a.in_flight[i] / double(parts_per_stage(a.laid.schedule))
                                    : 0;
            const double n = lerp(from, b.in_flight[i] / double(v), m.u);
            add_squares(s, r, n, alpha);
            const std::string text = v > 1 ? format_sig3(n) : format_int(std::lround(n));
            s.add(Text{kFlightX, centred_baseline(metrics_, text, count, r.cy()), text, count,
                       palette_.activations},
                  alpha);
        }
        // Interleaved stages hold chunks: counted here in whole stages' worth of activations.
        if (v > 1)
            TextColumn(metrics_, kFlightX, timeline_view_.axis_y() + kAxisLabelGap)
                .line("a chunk is 1/" + std::to_string(v) + " of a stage", Role::small,
                      palette_.muted)
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
        const engine::Config& a = timeline_.states()[m.from];
        const engine::Config& b = state(m);
        const auto n = [&](auto field) {
            return format_int(count_between(field(a), field(b), m.u));
        };
        const std::string p = n([](const engine::Config& c) { return c.layout.pp; });
        const std::string mb = n([](const engine::Config& c) { return c.training.micro_batches; });
        const std::string v = n([](const engine::Config& c) { return c.training.chunks; });
        const double bubble =
            figure_at(t, [](const engine::Report& r) { return r.bubble_fraction; });
        const std::string line =
            bubble_formula(b.training.schedule, p, mb, v) + " = " + format_percent(bubble);
        TextStyle style = tabular(weighted(style_of(Role::body), Weight::semibold));
        style.size = fit_size(metrics_, line, style, kTimeline.w);
        TextColumn(metrics_, kTimeline.x, timeline_view_.below_axis() + kReadoutGap)
            .line(line, style, palette_.text)
            .line("Measured on this timeline: " + format_percent(value_at(t, measured_)) +
                      (split_backward(b.training.schedule) ? " of a GPU's own span idle"
                                                           : " of GPU time idle"),
                  tabular(style_of(Role::note)), palette_.muted)
            .add_to(s, alpha);
    }

    const PipelineTimeline timeline_view_;
    const Stagger rows_in_;
    const Fade legend_in_, readout_in_, flight_in_;
    std::vector<Drawn> drawn_;
    std::vector<double> measured_;  // idle share of the slot area, per state
};

std::unique_ptr<Chapter> make(const ChapterSpec& spec, const Video& video,
                              const TextMetrics& metrics) {
    return std::make_unique<PipelineChapter>(spec, video, metrics);
}

std::optional<std::string> cannot_draw(const engine::Config& c) {
    const int v = c.training.schedule == engine::Schedule::interleaved ? c.training.chunks : 1;
    const long long slots = 1LL * c.layout.pp * c.training.micro_batches * v;
    if (slots <= kMaxSlots) return std::nullopt;
    return "pipeline_bubble draws at most " + std::to_string(kMaxSlots) +
           " slots (pp x micro_batches x chunks), got " + std::to_string(slots);
}

const KindRegistrar registrar{{"pipeline_bubble",
                               kDefaultDuration,
                               {"pp", "micro_batches", "schedule", "chunks"},
                               make,
                               cannot_draw}};

}  // namespace

}  // namespace story
