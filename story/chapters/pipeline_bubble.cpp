// `pipeline_bubble`: the pipeline as a stage-by-time timeline drawn exactly from the engine's
// schedule (GPipe, 1F1B, interleaved): slots appear as a playhead sweeps right, idle time is
// hatched, the bubble is read out as (p-1)/(m+p-1) beside the fraction measured on the slots,
// and each stage shows the activations it holds. `set:` slides the slots to the new schedule.
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "engine/pipeline.hpp"
#include "story/chapter_base.hpp"
#include "story/format.hpp"
#include "story/strategy_kit.hpp"

namespace story {

namespace {

constexpr double kDefaultDuration = 30;
constexpr long long kMaxSlots = 4096;  // pp x micro_batches x chunks forward slots drawn
// Choreography, in seconds of the default duration.
constexpr double kRowsAt = 0.4, kSweepAt = 1.2, kSweepFor = 6.0, kReadoutAt = 7.4, kFlightAt = 9.0;

// Timeline box: rows of stages, time to the right; the in-flight column beside it.
constexpr double kX0 = 250, kX1 = 1490, kTop = 340, kBottom = 740, kRowGap = 10;
constexpr double kFlightX = 1530, kFlightRight = frame::kRight;

using SlotKey = std::tuple<int, int, int, bool>;  // stage, micro-batch, chunk, backward

SlotKey key_of(const engine::PipelineSlot& s) {
    return {s.stage, s.micro_batch, s.chunk, s.backward};
}

struct Row {
    double y = 0, h = 0;
};

Row row(int stages, int i) {
    const double h = (kBottom - kTop - kRowGap * (stages - 1)) / stages;
    return {kTop + i * (h + kRowGap), h};
}

// One state's schedule, measured once up front.
struct Drawn {
    engine::PipelineSchedule schedule;
    std::map<SlotKey, engine::PipelineSlot> by_key;
    std::vector<int> in_flight;  // per stage
    double measured = 0;         // idle share of the slot area
    int makespan = 0;
};

Drawn draw_state(const engine::Config& c) {
    Drawn d;
    const int v = c.training.schedule == engine::Schedule::interleaved ? c.training.chunks : 1;
    d.schedule =
        engine::pipeline_schedule(c.training.schedule, c.layout.pp, c.training.micro_batches, v);
    for (const auto& s : d.schedule.slots) d.by_key[key_of(s)] = s;
    for (int st = 0; st < d.schedule.stages; ++st)
        d.in_flight.push_back(d.schedule.max_in_flight(st));
    d.measured = d.schedule.idle_fraction();
    d.makespan = d.schedule.makespan();
    return d;
}

std::vector<Drawn> draw_all(const std::vector<engine::Config>& states) {
    std::vector<Drawn> out;
    for (const auto& c : states) out.push_back(draw_state(c));
    return out;
}

// Where a slot sits in one state, in px.
struct Box {
    double x = 0, y = 0, w = 0, h = 0;
};

Box place(const Drawn& d, const engine::PipelineSlot& s) {
    const double unit = (kX1 - kX0) / std::max(1, d.makespan);
    const Row r = row(d.schedule.stages, s.stage);
    return {kX0 + s.start * unit, r.y, s.duration * unit, r.h};
}

Box lerp_box(const Box& a, const Box& b, double u) {
    return {lerp(a.x, b.x, u), lerp(a.y, b.y, u), lerp(a.w, b.w, u), lerp(a.h, b.h, u)};
}

class PipelineChapter final : public ChapterBase {
  public:
    PipelineChapter(const ChapterSpec& spec, const Video& video, const TextMetrics& metrics)
        : ChapterBase(spec, video, metrics),
          drawn_(draw_all(timeline_.states())),
          colors_(pass_colors(palette_)) {}

    Scene scene_at(double t) const override {
        Scene s = blank();
        const Morph m = timeline_.morph_at(t);
        add_legend_row(s, t);
        add_rows(s, t, m);
        add_slots(s, t, m);
        add_playhead(s, t);
        add_in_flight(s, t, m);
        add_readout(s, t, m);
        add_frame(s, t);
        return s;
    }

  private:
    double at(double authored) const {
        return scaled_time(authored, spec_.duration, kDefaultDuration);
    }

    // Fraction of the timeline width the playhead has swept: constant speed.
    double sweep(double t) const { return progress(t, at(kSweepAt), at(kSweepFor), Ease::linear); }
    double sweep_x(double t) const { return lerp(kX0, kX1, sweep(t)); }

    const engine::Config& state(const Morph& m) const { return timeline_.states()[m.to]; }

    void add_legend_row(Scene& s, double t) const {
        const bool interleaved =
            state(timeline_.morph_at(t)).training.schedule == engine::Schedule::interleaved;
        add_legend(s, palette_, metrics_, kX0, 300,
                   {{"Forward", colors_.forward},
                    {"Backward (2× a forward)", colors_.backward},
                    {"Idle: the bubble", palette_.idle, true}},
                   progress(t, at(kRowsAt), 0.5));
        const TextStyle style{frame::kLabelSize, Weight::semibold, false};
        const std::string name =
            std::string(interleaved ? "interleaved 1F1B" : schedule_name(timeline_.morph_at(t)));
        s.add(Text{kX1, 300, "Schedule: " + name, style, palette_.text, Align::right},
              progress(t, at(kRowsAt), 0.5));
    }

    std::string_view schedule_name(const Morph& m) const {
        return state(m).training.schedule == engine::Schedule::gpipe ? "GPipe" : "1F1B";
    }

    // Stage rows: the label, and the hatched idle ground the slots are laid over.
    void add_rows(Scene& s, double t, const Morph& m) const {
        const int from = drawn_[m.from].schedule.stages, to = drawn_[m.to].schedule.stages;
        const TextStyle label{frame::kLabelSize, Weight::medium, false};
        for (int i = 0; i < std::max(from, to); ++i) {
            const Row a = row(from, std::min(i, from - 1)), b = row(to, std::min(i, to - 1));
            const Row r{lerp(a.y, b.y, m.u), lerp(a.h, b.h, m.u)};
            double alpha = progress(t, at(kRowsAt) + 0.08 * i, 0.5);
            if (i >= to) alpha *= 1 - m.u;
            if (i >= from) alpha *= m.u;
            if (alpha <= 0) continue;
            s.add(Text{kX0 - 20, r.y + r.h / 2 + 9, "GPU " + std::to_string(i), label,
                       palette_.muted, Align::right},
                  alpha);
            s.add(Rect{kX0, r.y, kX1 - kX0, r.h, 4, std::nullopt, palette_.grid, 1.5}, alpha);
            const double swept = sweep_x(t) - kX0;
            if (swept > 0)
                s.add(Rect{kX0, r.y, swept, r.h, 4, palette_.panel, std::nullopt, 0, false,
                           palette_.idle},
                      alpha);
        }
        const TextStyle axis{frame::kLabelSize, Weight::regular, false};
        const double y = kBottom + 16;
        const double alpha = progress(t, at(kRowsAt), 0.5);
        s.add(Arrow{{kX0, y}, {kX1, y}, palette_.muted, 2, 12}, alpha);
        s.add(Text{kX1, y + 34, "time", axis, palette_.muted, Align::right}, alpha);
    }

    void add_slots(Scene& s, double t, const Morph& m) const {
        const Drawn& a = drawn_[m.from];
        const Drawn& b = drawn_[m.to];
        const double labels = label_alpha(t);
        for (const auto& [key, slot] : b.by_key) {
            const auto it = a.by_key.find(key);
            if (it == a.by_key.end())
                add_slot(s, t, slot, place(b, slot), m.u, labels);
            else
                add_slot(s, t, slot, lerp_box(place(a, it->second), place(b, slot), m.u), 1,
                         labels);
        }
        if (m.from == m.to) return;
        for (const auto& [key, slot] : a.by_key)
            if (!b.by_key.count(key)) add_slot(s, t, slot, place(a, slot), 1 - m.u, 0);
    }

    // Numbers step aside for the whole of a `set:` slide, fading out just before it and back once
    // the slots settle: sliding slots overlap and narrow, so a number would sit on its neighbour's.
    double label_alpha(double t) const {
        constexpr double kAside = 0.3;  // seconds to fade out before, and back in after
        double a = 1;
        for (const Beat& b : spec_.beats)
            if (!b.set.empty())
                a = std::min(a, std::max(1 - progress(t, b.at - kAside, kAside),
                                         progress(t, b.at + b.over, kAside)));
        return a;
    }

    // A slot reveals left to right as the playhead passes it.
    void add_slot(Scene& s, double t, const engine::PipelineSlot& slot, const Box& box,
                  double alpha, double text_alpha) const {
        const double shown = std::clamp(sweep_x(t) - box.x, 0.0, box.w);
        if (shown <= 0 || alpha <= 0) return;
        const double inset = std::min(1.5, box.w / 6);
        const Color fill = slot.backward ? colors_.backward : colors_.forward;
        s.add(Rect{box.x + inset, box.y + 3, std::max(0.0, shown - 2 * inset), box.h - 6, 3, fill},
              alpha);
        const std::string label = std::to_string(slot.micro_batch + 1);
        TextStyle style{std::min(frame::kLabelSize, box.h * 0.4), Weight::semibold, true};
        if (style.size < frame::kMinTextSize || shown < box.w - 1e-6 || text_alpha <= 0) return;
        if (metrics_.measure(label, style).advance + 6 > box.w - 2 * inset) return;
        s.add(Text{box.x + box.w / 2, box.y + box.h / 2 + style.size * 0.35, label, style,
                   readable_on(palette_, fill), Align::center},
              alpha * text_alpha);
    }

    void add_playhead(Scene& s, double t) const {
        const double u = sweep(t);
        if (u <= 0 || u >= 1) return;
        const double x = sweep_x(t);
        s.add(Line{{x, kTop - 14}, {x, kBottom + 6}, palette_.highlight, 3});
    }

    // Activations each stage holds at its peak: one square per micro-batch (a chunk is 1/v of one).
    void add_in_flight(Scene& s, double t, const Morph& m) const {
        const double alpha = progress(t, at(kFlightAt), 0.5);
        if (alpha <= 0) return;
        TextStyle head{frame::kLabelSize, Weight::semibold, false};
        head.size = fit_size(metrics_, "Micro-batches held", head, kFlightRight - kFlightX);
        s.add(Text{kFlightX, 300, "Micro-batches held", head, palette_.text}, alpha);
        const Drawn& a = drawn_[m.from];
        const Drawn& b = drawn_[m.to];
        const int v = b.schedule.chunks;
        const TextStyle count{frame::kLabelSize, Weight::semibold, true};
        for (int i = 0; i < b.schedule.stages; ++i) {
            const Row r = row(b.schedule.stages, i);
            const double from =
                i < a.schedule.stages ? a.in_flight[i] / double(a.schedule.chunks) : 0;
            const double n = lerp(from, b.in_flight[i] / double(v), m.u);
            add_squares(s, r, n, alpha);
            const std::string text = v > 1 ? format_sig3(n) : count_text(from, n, 1);
            s.add(Text{kFlightX, r.y + r.h / 2 + 9, text, count, palette_.activations}, alpha);
        }
        // Interleaved stages hold chunks: counted here in whole stages' worth of activations.
        if (v > 1) {
            const TextStyle note{22, Weight::regular, false};
            s.add(Text{kFlightX, kBottom + 34, "a chunk is 1/" + std::to_string(v) + " of a stage",
                       note, palette_.muted},
                  alpha * m.u);
        }
    }

    // n micro-batches' activations as squares, the last one partial while the count morphs.
    void add_squares(Scene& s, const Row& r, double n, double alpha) const {
        const double left = kFlightX + 56, room = kFlightRight - left;
        const double side = std::min({22.0, r.h * 0.5, room / std::max(1.0, std::ceil(n)) - 3});
        for (int k = 0; k < std::ceil(n - 1e-9); ++k) {
            const double part = std::min(1.0, n - k);
            s.add(Rect{left + k * (side + 3), r.y + r.h / 2 - side / 2, side * part, side, 2,
                       palette_.activations},
                  alpha);
        }
    }

    void add_readout(Scene& s, double t, const Morph& m) const {
        const double alpha = progress(t, at(kReadoutAt), 0.5);
        if (alpha <= 0) return;
        const engine::Config& a = timeline_.states()[m.from];
        const engine::Config& b = state(m);
        const bool interleaved = b.training.schedule == engine::Schedule::interleaved;
        const auto n = [&](auto field) { return count_text(field(a), field(b), m.u); };
        const std::string p = n([](const engine::Config& c) { return double(c.layout.pp); });
        const std::string mb =
            n([](const engine::Config& c) { return double(c.training.micro_batches); });
        const std::string v = n([](const engine::Config& c) { return double(c.training.chunks); });
        const double bubble =
            figure_at(t, [](const engine::Report& r) { return r.bubble_fraction; });
        const std::string line =
            interleaved ? "Bubble = (p − 1) / (v·m + p − 1) = (" + p + " − 1) / (" + v + "·" + mb +
                              " + " + p + " − 1) = " + format_percent(bubble)
                        : "Bubble = (p − 1) / (m + p − 1) = (" + p + " − 1) / (" + mb + " + " + p +
                              " − 1) = " + format_percent(bubble);
        TextStyle style{frame::kBodySize, Weight::semibold, true};
        style.size = fit_size(metrics_, line, style, kX1 - kX0);
        s.add(Text{kX0, 838, line, style, palette_.text}, alpha);
        const double measured = lerp(drawn_[m.from].measured, drawn_[m.to].measured, m.u);
        const TextStyle note{frame::kLabelSize, Weight::regular, true};
        s.add(Text{kX0, 884,
                   "Measured on this timeline: " + format_percent(measured) + " of GPU time idle",
                   note, palette_.muted},
              alpha);
    }

    const std::vector<Drawn> drawn_;
    const PassColors colors_;
};

std::unique_ptr<Chapter> make(const ChapterSpec& spec, const Video& video,
                              const TextMetrics& metrics) {
    return std::make_unique<PipelineChapter>(spec, video, metrics);
}

std::optional<std::string> too_large(const engine::Config& c) {
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
                               too_large}};

}  // namespace

}  // namespace story
