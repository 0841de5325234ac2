// `pipeline_bubble`: the pipeline as a stage-by-time timeline drawn exactly from the engine's
// schedule (GPipe, 1F1B, interleaved, ZB-H1, ZB-H2, DualPipe): slots appear as a playhead sweeps
// right, idle time is hatched, the bubble is read out by its formula beside the fraction measured
// on the slots, and each stage shows the activations it holds. `set:` slides the slots to the new
// schedule.
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "engine/pipeline.hpp"
#include "story/chapter_base.hpp"
#include "story/draw/draw.hpp"
#include "story/format.hpp"

namespace story {

namespace {

constexpr double kDefaultDuration = 30;
constexpr long long kMaxSlots = 4096;  // pp x micro_batches x chunks forward slots drawn
// Choreography, in seconds of the default duration.
constexpr double kRowsAt = 0.4, kSweepAt = 1.2, kSweepFor = 6.0, kReadoutAt = 7.4, kFlightAt = 9.0;
constexpr double kLabelsAside = 0.3;  // s the slot numbers fade out before a slide, and back after

// Timeline box: rows of stages, time to the right; the in-flight column beside it, and the
// legend and headers on one baseline above them.
constexpr Box kTimeline{250, 340, 1490 - 250, 400};
constexpr double kRowGap = 10, kRowNameGap = 20, kSlotPad = 3;
constexpr double kHeaderBaseline = 300;
constexpr double kFlightX = 1530, kFlightRight = frame::kRight;
constexpr double kSquaresAfter = 56, kSquareMax = 22, kSquareGap = 3;
// Under the timeline: the time axis and its label, then the read-out.
constexpr double kAxisDrop = 16, kAxisHead = 12, kPlayheadOver = 14, kPlayheadUnder = 6;
constexpr double kAxisLabelGap = 8, kReadoutGap = 10;

// The schedules' names as their papers write them.
constexpr std::pair<engine::Schedule, const char*> kScheduleTitles[] = {
    {engine::Schedule::gpipe, "GPipe"},
    {engine::Schedule::one_f_one_b, "1F1B"},
    {engine::Schedule::interleaved, "interleaved 1F1B"},
    {engine::Schedule::zb_h1, "ZB-H1"},
    {engine::Schedule::zb_h2, "ZB-H2"},
    {engine::Schedule::dualpipe, "DualPipe"}};

using SlotKey = std::tuple<int, int, int, engine::Pass>;  // stage, micro-batch, chunk, pass

SlotKey key_of(const engine::PipelineSlot& s) { return {s.stage, s.micro_batch, s.chunk, s.pass}; }

bool split_backward(engine::Schedule s) {
    return s == engine::Schedule::zb_h1 || s == engine::Schedule::zb_h2 ||
           s == engine::Schedule::dualpipe;
}

// Activations per slot-chunk in whole stages: an interleaved chunk is 1/v of a stage; DualPipe's
// two chunks are two whole stages (DeepSeek-V3 report, Table 2).
int parts_per_stage(const engine::PipelineSchedule& s) {
    return s.kind == engine::Schedule::interleaved ? s.chunks : 1;
}

// A slot of the schedule and where it sits on the timeline.
struct DrawnSlot {
    engine::PipelineSlot slot;
    Box box;
};

// One state's schedule, measured and laid out once up front.
struct Drawn {
    engine::PipelineSchedule schedule;
    std::vector<Box> rows;  // one per stage
    std::map<SlotKey, DrawnSlot> by_key;
    std::vector<int> in_flight;  // per stage
};

Drawn draw_state(const engine::Config& c) {
    Drawn d;
    const int v = c.training.schedule == engine::Schedule::interleaved ? c.training.chunks : 1;
    d.schedule =
        engine::pipeline_schedule(c.training.schedule, c.layout.pp, c.training.micro_batches, v);
    const int stages = d.schedule.stages;
    for (int st = 0; st < stages; ++st) {
        d.rows.push_back(column_cell(kTimeline, stages, st, kRowGap));
        d.in_flight.push_back(d.schedule.max_in_flight(st));
    }
    const double unit = kTimeline.w / std::max(1, d.schedule.makespan());
    for (const auto& s : d.schedule.slots) {
        const Box& row = d.rows[s.stage];
        d.by_key[key_of(s)] = {s, {kTimeline.x + s.start * unit, row.y, s.duration * unit, row.h}};
    }
    return d;
}

// The bubble's formula with the state's numbers put in (engine/pipeline.cpp cites each): the
// zero-bubble ones count idle within each GPU's own span, F = B = W = 1 unit.
std::string bubble_formula(engine::Schedule kind, const std::string& p, const std::string& m,
                           const std::string& v) {
    switch (kind) {
        case engine::Schedule::interleaved:
            return "Bubble = (p − 1) / (v·m + p − 1) = (" + p + " − 1) / (" + v + "·" + m + " + " +
                   p + " − 1)";
        case engine::Schedule::zb_h1:
            return "Bubble = (p − 1) / (3m + p − 1) = (" + p + " − 1) / (3·" + m + " + " + p +
                   " − 1)";
        case engine::Schedule::zb_h2:
            return "Bubble = (p − 1)(F + B − 2W) / step, 0 once m ≥ 2p − 1 (p = " + p +
                   ", m = " + m + ")";
        case engine::Schedule::dualpipe:
            return "Bubble = (p/2 − 1) / (3m + p/2 − 1) = (" + p + "/2 − 1) / (3·" + m + " + " + p +
                   "/2 − 1)";
        default:
            return "Bubble = (p − 1) / (m + p − 1) = (" + p + " − 1) / (" + m + " + " + p + " − 1)";
    }
}

class PipelineChapter final : public ChapterBase {
  public:
    PipelineChapter(const ChapterSpec& spec, const Video& video, const TextMetrics& metrics)
        : ChapterBase(spec, video, metrics),
          colors_(pass_colors(palette_)),
          rows_in_{at(kRowsAt)},
          legend_in_(Fade::in(at(kRowsAt))),
          readout_in_(Fade::in(at(kReadoutAt))),
          flight_in_(Fade::in(at(kFlightAt))),
          axis_y_(kTimeline.bottom() + kAxisDrop),
          time_label_(metrics_, kTimeline.right(), axis_y_ + kAxisLabelGap, Align::right) {
        for (const engine::Config& c : timeline_.states()) {
            drawn_.push_back(draw_state(c));
            measured_.push_back(drawn_.back().schedule.bubble_share());
        }
        time_label_.line("time", Role::note, palette_.muted);
    }

    Scene scene_at(double t) const override {
        Scene s = blank();
        const Morph m = timeline_.morph_at(t);
        add_legend_row(s, t, m);
        add_rows(s, t, m);
        add_slots(s, t, m);
        add_playhead(s, t);
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

    void add_legend_row(Scene& s, double t, const Morph& m) const {
        const double alpha = legend_in_.at(t);
        if (split_backward(state(m).training.schedule))
            add_legend(s, palette_, metrics_, kTimeline.x, kHeaderBaseline,
                       {{"Forward", colors_.forward},
                        {"B: input gradient", colors_.backward},
                        {"W: weight gradient", colors_.weight_grad},
                        {"Idle", palette_.idle, true}},
                       alpha);
        else
            add_legend(s, palette_, metrics_, kTimeline.x, kHeaderBaseline,
                       {{"Forward", colors_.forward},
                        {"Backward (2× a forward)", colors_.backward},
                        {"Idle: the bubble", palette_.idle, true}},
                       alpha);
        s.add(Text{kTimeline.right(), kHeaderBaseline, "Schedule: " + schedule_name(m),
                   weighted(style_of(Role::label), Weight::semibold), palette_.text, Align::right},
              alpha);
    }

    std::string schedule_name(const Morph& m) const {
        for (const auto& [kind, title] : kScheduleTitles)
            if (kind == state(m).training.schedule) return title;
        return "1F1B";
    }

    // Stage rows: the label, and the hatched idle ground the slots are laid over.
    void add_rows(Scene& s, double t, const Morph& m) const {
        const std::vector<Box>&from = drawn_[m.from].rows, &to = drawn_[m.to].rows;
        const int n_from = int(from.size()), n_to = int(to.size());
        const TextStyle label = style_of(Role::label);
        for (int i = 0; i < std::max(n_from, n_to); ++i) {
            const Box r = lerp(from[std::min(i, n_from - 1)], to[std::min(i, n_to - 1)], m.u);
            double alpha = rows_in_.at(t, i);
            if (i >= n_to) alpha *= 1 - m.u;
            if (i >= n_from) alpha *= m.u;
            if (alpha <= 0) continue;
            const std::string name = "GPU " + std::to_string(i);
            s.add(Text{r.x - kRowNameGap, centred_baseline(metrics_, name, label, r.cy()), name,
                       label, palette_.muted, Align::right},
                  alpha);
            s.add(outline(r, 4, palette_.grid, 1.5), alpha);
            const double swept = sweep_x(t) - r.x;
            if (swept <= 0) continue;
            Rect idle = filled(left_of(r, swept), 4, palette_.panel);
            idle.hatch = palette_.idle;
            s.add(idle, alpha);
        }
        const double alpha = legend_in_.at(t);
        s.add(
            Arrow{
                {kTimeline.x, axis_y_}, {kTimeline.right(), axis_y_}, palette_.muted, 2, kAxisHead},
            alpha);
        time_label_.add_to(s, alpha);
    }

    void add_slots(Scene& s, double t, const Morph& m) const {
        const Drawn& a = drawn_[m.from];
        const Drawn& b = drawn_[m.to];
        const double labels = label_alpha(t);
        for (const auto& [key, to] : b.by_key) {
            const auto it = a.by_key.find(key);
            if (it == a.by_key.end())
                add_slot(s, t, to.slot, to.box, m.u, labels);
            else
                add_slot(s, t, to.slot, lerp(it->second.box, to.box, m.u), 1, labels);
        }
        if (m.from == m.to) return;
        for (const auto& [key, from] : a.by_key)
            if (!b.by_key.count(key)) add_slot(s, t, from.slot, from.box, 1 - m.u, 0);
    }

    // Numbers step aside for the whole of a `set:` slide, fading out just before it and back once
    // the slots settle: sliding slots overlap and narrow, so a number would sit on its neighbour's.
    double label_alpha(double t) const {
        double a = 1;
        for (const Beat& b : spec_.beats)
            if (!b.set.empty())
                a = std::min(a, std::max(Fade::shown().out(b.at - kLabelsAside, kLabelsAside).at(t),
                                         Fade::in(b.at + b.over, kLabelsAside).at(t)));
        return a;
    }

    // A slot reveals left to right as the playhead passes it.
    void add_slot(Scene& s, double t, const engine::PipelineSlot& slot, const Box& box,
                  double alpha, double text_alpha) const {
        const double shown = std::clamp(sweep_x(t) - box.x, 0.0, box.w);
        if (shown <= 0 || alpha <= 0) return;
        const double pad = std::min(1.5, box.w / 6);
        const Color fill = slot.pass == engine::Pass::forward           ? colors_.forward
                           : slot.pass == engine::Pass::backward_weight ? colors_.weight_grad
                                                                        : colors_.backward;
        const Box bar = inset(left_of(box, shown), pad, kSlotPad);
        if (bar.w > 0) s.add(filled(bar, 3, fill), alpha);
        const std::string label = std::to_string(slot.micro_batch + 1);
        const TextStyle style =
            sized(style_of(Role::figure), std::min(frame::kLabelSize, box.h * 0.4));
        if (style.size < frame::kMinTextSize || shown < box.w - 1e-6 || text_alpha <= 0) return;
        if (metrics_.measure(label, style).advance + 6 > box.w - 2 * pad) return;
        s.add(Text{box.cx(), centred_baseline(metrics_, label, style, box.cy()), label, style,
                   readable_on(palette_, fill), Align::center},
              alpha * text_alpha);
    }

    void add_playhead(Scene& s, double t) const {
        const double u = sweep(t);
        if (u <= 0 || u >= 1) return;
        const double x = sweep_x(t);
        s.add(Line{{x, kTimeline.y - kPlayheadOver},
                   {x, kTimeline.bottom() + kPlayheadUnder},
                   palette_.highlight,
                   3});
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
        const int v = parts_per_stage(b.schedule);
        const TextStyle count = style_of(Role::figure);
        for (int i = 0; i < b.schedule.stages; ++i) {
            const Box& r = b.rows[i];
            const double from =
                i < a.schedule.stages ? a.in_flight[i] / double(parts_per_stage(a.schedule)) : 0;
            const double n = lerp(from, b.in_flight[i] / double(v), m.u);
            add_squares(s, r, n, alpha);
            const std::string text = v > 1 ? format_sig3(n) : format_int(std::lround(n));
            s.add(Text{kFlightX, centred_baseline(metrics_, text, count, r.cy()), text, count,
                       palette_.activations},
                  alpha);
        }
        // Interleaved stages hold chunks: counted here in whole stages' worth of activations.
        if (v > 1)
            TextColumn(metrics_, kFlightX, axis_y_ + kAxisLabelGap)
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
        TextColumn(metrics_, kTimeline.x, time_label_.bottom() + kReadoutGap)
            .line(line, style, palette_.text)
            .line("Measured on this timeline: " + format_percent(value_at(t, measured_)) +
                      (split_backward(b.training.schedule) ? " of a GPU's own span idle"
                                                           : " of GPU time idle"),
                  tabular(style_of(Role::note)), palette_.muted)
            .add_to(s, alpha);
    }

    const PassColors colors_;
    const Stagger rows_in_;
    const Fade legend_in_, readout_in_, flight_in_;
    const double axis_y_;
    TextColumn time_label_;
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
