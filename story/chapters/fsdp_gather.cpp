// `fsdp_gather`: the FSDP film from engine::fsdp_plan. The model is a loaf of layer slices and
// each card keeps only its shard of every slice; slice by slice the full weights are gathered
// (shards fly in from the other cards), used and freed, forward then backward, and the
// gradients are reduce-scattered. A live gauge per card follows the plan's resident bytes, and
// the traffic is read out against data parallel's (1.5x).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "engine/fsdp.hpp"
#include "engine/report.hpp"
#include "story/chapter_base.hpp"
#include "story/format.hpp"
#include "story/shard_kit.hpp"
#include "story/vocab.hpp"

namespace story {

namespace {

constexpr double kDefaultDuration = 30;
// Choreography, in seconds of the default duration.
constexpr double kLoafAt = 0.3, kShardAt = 2.4, kCardsAt = 2.8, kFilmAt = 5.5, kTrafficAt = 25.4;
// Seconds each step of one slice takes on screen (a slice stands for several layers).
constexpr double kGather = 0.45, kForward = 0.3, kReshard = 0.2;
constexpr double kGatherBack = 0.4, kBackward = 0.55, kScatter = 0.4, kReshardBack = 0.15;
constexpr int kMaxSlices = 8, kMaxCards = 8;
constexpr int kMaxShards = 1024;

// The loaf on the left, the cards on the right under the read-outs.
constexpr double kLoafX = 120, kLoafW = 400, kLoafTop = 300, kSliceH = 46, kSliceStep = 60;
constexpr double kCardsLeft = 600, kCardsRight = frame::kRight, kCardsTop = 480, kCardH = 370;
constexpr double kBarTop = 430, kBarH = 26;  // each card's workspace for the gathered slice

enum class Step { gather, compute, scatter, reshard };

// One step of one slice on screen, with the plan's resident bytes before and after it.
struct Phase {
    Step step = Step::gather;
    bool backward = false;
    int slice = 0;
    double start = 0, duration = 0;
    double live_before = 0, live_after = 0;
    double end() const { return start + duration; }
};

// Where the film stands at t.
struct FilmAt {
    const Phase* phase = nullptr;  // nullptr: before the film or after it
    double u = 0;                  // progress through the phase, 0..1 (linear)
    bool done = false;
};

const engine::FsdpEvent& event(const engine::FsdpPlan& plan, engine::FsdpOp op, int layer,
                               bool backward) {
    // Reshard appears twice per layer: once after forward, once after backward.
    const engine::FsdpEvent* found = nullptr;
    for (const engine::FsdpEvent& e : plan.events) {
        if (e.op != op || e.layer != layer) continue;
        found = &e;
        if (!backward) break;
    }
    // engine::fsdp_plan has every op for every layer; a plan without one is a programmer error,
    // reported rather than dereferenced (asserts vanish from release builds).
    if (!found) throw std::logic_error("fsdp_plan has no event for layer " + std::to_string(layer));
    return *found;
}

class FsdpChapter final : public ChapterBase {
  public:
    FsdpChapter(const ChapterSpec& spec, const Video& video, const TextMetrics& metrics)
        : ChapterBase(spec, video, metrics) {
        for (engine::Config c : timeline_.states()) {
            c.layout.zero = 3;
            plans_.push_back(engine::fsdp_plan(c));
            const engine::Report fsdp = engine::analyze(c);
            c.layout.zero = 0;
            const engine::Report dp = engine::analyze(c);
            per_card_.push_back(fsdp.per_gpu.total.value);
            fsdp_bytes_.push_back(fsdp.comm.dp_per_gpu.value);
            fsdp_time_.push_back(fsdp.comm.dp_time.value);
            dp_bytes_.push_back(dp.comm.dp_per_gpu.value);
            buffer_.push_back(dp.per_gpu.gradients.value);
            model_states_.push_back(fsdp.model_states.value);
            sharded_.push_back(plans_.back().sharded_states.value);
            peak_.push_back(plans_.back().peak_bytes.value);
        }
        // The film plays the first state's plan (a `set:` changes the numbers, not the film).
        build_film(plans_.front());
    }

    Scene scene_at(double t) const override {
        Scene s = blank();
        const FilmAt f = film_at(t);
        add_loaf(s, t, f);
        add_cards(s, t, f);
        add_tokens(s, f);
        add_heading(s, t, f);
        const double bubble =
            figure_at(t, [](const engine::Report& r) { return r.bubble_fraction; });
        add_chrome(s, palette_, metrics_,
                   chrome_at(t, stat_panel(value(t, per_card_), value(t, fsdp_bytes_),
                                           value(t, fsdp_time_), bubble)));
        return s;
    }

  private:
    double at(double authored) const {
        return scaled_time(authored, spec_.duration, kDefaultDuration);
    }
    double pace() const { return std::min(1.0, spec_.duration / kDefaultDuration); }
    double value(double t, const std::vector<double>& v) const {
        return morph_value(timeline_, t, v);
    }
    int shards() const { return plans_.front().shards; }

    void build_film(const engine::FsdpPlan& plan) {
        slices_ = std::min(kMaxSlices, plan.layers);
        per_slice_ = (plan.layers + slices_ - 1) / slices_;
        slices_ = (plan.layers + per_slice_ - 1) / per_slice_;
        double now = at(kFilmAt);
        double live = plan.sharded_states.value;
        const auto add = [&](Step step, bool back, int slice, double seconds, engine::FsdpOp op) {
            const double after = event(plan, op, slice * per_slice_, back).live_bytes_after.value;
            film_.push_back({step, back, slice, now, seconds * pace(), live, after});
            now += seconds * pace();
            live = after;
        };
        using Op = engine::FsdpOp;
        for (int g = 0; g < slices_; ++g) {
            add(Step::gather, false, g, kGather, Op::gather);
            add(Step::compute, false, g, kForward, Op::forward);
            add(Step::reshard, false, g, kReshard, Op::reshard);
        }
        for (int g = slices_ - 1; g >= 0; --g) {
            add(Step::gather, true, g, kGatherBack, Op::gather_backward);
            add(Step::compute, true, g, kBackward, Op::backward);
            add(Step::scatter, true, g, kScatter, Op::reduce_scatter);
            add(Step::reshard, true, g, kReshardBack, Op::reshard);
        }
    }

    FilmAt film_at(double t) const {
        if (film_.empty() || t < film_.front().start) return {};
        for (const Phase& p : film_)
            if (t < p.end()) return {&p, (t - p.start) / p.duration, false};
        return {nullptr, 1, true};
    }

    // Resident bytes per card at t: counting across each phase, the plan's value at its end.
    double live(const FilmAt& f) const {
        const engine::FsdpPlan& plan = plans_.front();
        if (!f.phase) return plan.sharded_states.value;
        const double u = progress(f.u, 0, 1);
        return lerp(f.phase->live_before, f.phase->live_after, u);
    }

    // The loaf: slices cut into one shard per card; the slice at work is outlined.
    void add_loaf(Scene& s, double t, const FilmAt& f) const {
        const engine::FsdpPlan& plan = plans_.front();
        const TextStyle label{frame::kLabelSize, Weight::medium, false};
        const double in = progress(t, at(kLoafAt), 0.5);
        s.add(Text{kLoafX, kLoafTop - 24,
                   format_params(reports_.front().params) + " model · " +
                       std::to_string(plan.layers) + " layers",
                   label, palette_.text},
              in);
        const double shard = progress(t, at(kShardAt), 0.6);
        const int n = shards();
        const double cell = kLoafW / n;
        for (int g = 0; g < slices_; ++g) {
            const double y = kLoafTop + g * kSliceStep,
                         a = progress(t, at(kLoafAt) + 0.07 * g, 0.5);
            const bool current = f.phase && f.phase->slice == g;
            for (int j = 0; j < n; ++j) {
                const double gap = n > 1 ? 3 * shard : 0;
                s.add(Rect{kLoafX + j * cell + gap / 2, y, cell - gap, kSliceH, 4,
                           with_alpha(palette_.weights, 1 - 0.45 * shard)},
                      a);
            }
            if (current)
                s.add(Rect{kLoafX - 6, y - 6, kLoafW + 12, kSliceH + 12, 8, std::nullopt,
                           f.phase->backward ? palette_.gradients : palette_.highlight, 3});
        }
        const TextStyle note{frame::kLabelSize, Weight::regular, false};
        const std::string per = per_slice_ == 1
                                    ? "one slice = one layer"
                                    : "one slice = " + std::to_string(per_slice_) + " layers";
        s.add(Text{kLoafX, kLoafTop + slices_ * kSliceStep + 24, per, note, palette_.muted}, in);
        s.add(Text{kLoafX, kLoafTop + slices_ * kSliceStep + 60,
                   "cut into " + std::to_string(n) + " shards, one per card", note, palette_.muted},
              shard);
    }

    Box card_box(int slot, int slots) const {
        return row_box(slots, slot, kCardsLeft, kCardsRight, kCardsTop, kCardH, 190, 18);
    }

    void add_cards(Scene& s, double t, const FilmAt& f) const {
        const engine::FsdpPlan& plan = plans_.front();
        const auto ranks = shown_ranks(shards(), kMaxCards);
        const int slots = static_cast<int>(ranks.size());
        const double now = live(f), base = plan.sharded_states.value;
        const double layer = std::clamp(now - base, 0.0, plan.layer_full_bytes.value);
        const double grads = std::max(0.0, now - base - layer);
        const double cap = report_at(t).per_gpu.capacity.value;
        const double w = morph_part(t, [](const engine::PerGpu& g) { return g.weights.value; });
        const double g = morph_part(t, [](const engine::PerGpu& g) { return g.gradients.value; });
        const double o = morph_part(t, [](const engine::PerGpu& g) { return g.optimizer.value; });
        const TextStyle gauge{frame::kLabelSize, Weight::semibold, true};
        for (int i = 0; i < slots; ++i) {
            const double alpha = progress(t, at(kCardsAt) + 0.08 * i, 0.5);
            const Box b = card_box(i, slots);
            if (ranks[i] < 0) {
                const TextStyle dots{frame::kHeadingSize, Weight::semibold, false};
                s.add(Text{b.cx(), b.cy(), "…", dots, palette_.muted, Align::center}, alpha);
                continue;
            }
            CardSpec card{b.x,
                          b.y,
                          b.w,
                          b.h,
                          "GPU " + std::to_string(ranks[i]),
                          cap,
                          {{w, palette_.weights},
                           {g, palette_.gradients},
                           {o, palette_.optimizer},
                           {layer, palette_.highlight},
                           {grads, palette_.gradients}}};
            card.capacity_label = false;
            card.label_size = b.w < 130 ? 22 : 26;
            add_all(s, gpu_card(palette_, metrics_, card), alpha);
            s.add(Text{b.cx(), b.y + b.h + 36, format_bytes(now), gauge, palette_.text,
                       Align::center},
                  alpha);
            add_workspace(s, b, ranks[i], f, alpha);
        }
    }

    // Model states of the sharded stack (ZeRO-3 figures of the engine), counting through morphs.
    double morph_part(double t, double (*part)(const engine::PerGpu&)) const {
        std::vector<double> v;
        for (const engine::FsdpPlan& p : plans_) v.push_back(p.sharded_states.value);
        const double total = value(t, v);
        engine::Config c = timeline_.states()[timeline_.morph_at(t).to];
        c.layout.zero = 3;
        const engine::PerGpu g = engine::per_gpu_memory(c);
        return total * part(g) / (g.weights + g.gradients + g.optimizer).value;
    }

    // Above each card, the slice it is assembling: its own shard, then one cell per arrival.
    void add_workspace(Scene& s, const Box& b, int rank, const FilmAt& f, double alpha) const {
        if (!f.phase) return;
        const Phase& p = *f.phase;
        const int n = shards();
        const double cell = b.w / n;
        Color fill = p.backward && (p.step == Step::compute || p.step == Step::scatter)
                         ? palette_.gradients
                         : palette_.weights;
        double fade = 1;
        if (p.step == Step::reshard) fade = 1 - f.u;
        for (int j = 0; j < n; ++j) {
            const bool own = j == rank;
            double a = alpha * fade;
            if (p.step == Step::gather && !own)
                a *= f.u >= 1 - 1e-9 ? 1 : 0.15 + 0.85 * (f.u > arrival(rank, j) ? 1 : 0);
            if (p.step == Step::scatter && !own) a *= 1 - f.u;
            s.add(Rect{b.x + j * cell + 1, kBarTop, cell - 2, kBarH, 3, fill}, a);
        }
        if (p.step == Step::compute)
            s.add(Rect{b.x - 3, kBarTop - 3, b.w + 6, kBarH + 6, 5, std::nullopt,
                       palette_.highlight, 2},
                  alpha);
    }

    // When, within a gather, the shard from rank j reaches rank i: tokens fly at one speed, so
    // nearer cards arrive first.
    double arrival(int i, int j) const {
        const int n = shards();
        return n > 1 ? 0.25 + 0.75 * std::abs(i - j) / (n - 1) : 0;
    }

    // Shards in flight: all-gather brings every shard to every card; reduce-scatter sends each
    // card's piece of the gradient to the card that owns it.
    void add_tokens(Scene& s, const FilmAt& f) const {
        if (!f.phase || (f.phase->step != Step::gather && f.phase->step != Step::scatter)) return;
        const auto ranks = shown_ranks(shards(), kMaxCards);
        const int slots = static_cast<int>(ranks.size());
        const double cell = card_box(0, slots).w / shards();
        for (int a = 0; a < slots; ++a)
            for (int b = 0; b < slots; ++b) {
                if (a == b || ranks[a] < 0 || ranks[b] < 0) continue;
                // Gather: rank a's own shard flies to b. Scatter: a's piece b flies to b.
                const int piece = f.phase->step == Step::gather ? ranks[a] : ranks[b];
                const Box from = card_box(a, slots), to = card_box(b, slots);
                const double end = arrival(ranks[b], ranks[a]);
                const double u = std::clamp(f.u / end, 0.0, 1.0);
                if (u >= 1) continue;
                const Point p0{from.x + (piece + 0.5) * cell, kBarTop},
                    p1{to.x + (piece + 0.5) * cell, kBarTop};
                Point p = along(p0, p1, u);
                p.y -= (16 + 0.03 * std::abs(p1.x - p0.x)) * std::sin(u * 3.14159265358979);
                add_token(s, palette_, metrics_, p, 14, palette_.comm, "", 1);
            }
    }

    std::string phase_text(const FilmAt& f) const {
        if (f.done) return "One training step done: every card updates its own shard";
        if (!f.phase) return "Each card keeps 1/" + std::to_string(shards()) + " of every layer";
        const Phase& p = *f.phase;
        const std::string where = std::string(p.backward ? "Backward" : "Forward") + " · slice " +
                                  std::to_string(p.slice + 1) + " of " + std::to_string(slices_) +
                                  ": ";
        switch (p.step) {
            case Step::gather:
                return where + "all-gather the full weights";
            case Step::compute:
                return where + (p.backward ? "compute gradients" : "compute");
            case Step::scatter:
                return where + "reduce-scatter the gradients";
            case Step::reshard:
                return where + "free the full copy";
        }
        return where;
    }

    void add_heading(Scene& s, double t, const FilmAt& f) const {
        const double in = progress(t, at(kShardAt), 0.5);
        if (in <= 0) {
            add_whole_model(s, t);
            return;
        }
        const TextStyle heading{frame::kBodySize + 2, Weight::semibold, false};
        s.add(Text{kCardsLeft, 290, phase_text(f), heading, palette_.text}, in);
        const TextStyle body{28, Weight::regular, true};
        const double traffic = progress(t, at(kTrafficAt), 0.6);
        const std::string gauge = "Live model states per card: " + format_bytes(live(f)) +
                                  ", peak " + format_bytes(value(t, peak_)) + " = " +
                                  format_bytes(value(t, sharded_)) +
                                  " of shards + one layer and its gradients";
        s.add(Text{kCardsLeft, 340, gauge, fit(gauge, body), palette_.muted}, in * (1 - traffic));
        if (traffic <= 0) return;
        const int n = shards();
        const std::string sent = "Per card per step: 3 × " + fraction_text(n - 1, n) + " × " +
                                 format_bytes(value(t, buffer_)) + " = " +
                                 format_bytes(value(t, fsdp_bytes_));
        const std::string vs =
            "data parallel's all-reduce moves " + format_bytes(value(t, dp_bytes_)) + ": FSDP " +
            format_sig3(value(t, fsdp_bytes_) / value(t, dp_bytes_)) + "× as much";
        s.add(Text{kCardsLeft, 340, sent, fit(sent, body), palette_.comm}, traffic);
        s.add(Text{kCardsLeft, 384, vs, fit(vs, body), palette_.text}, traffic);
    }

    // Before the shards: the whole model's state against one card.
    void add_whole_model(Scene& s, double t) const {
        const double in =
            progress(t, at(kLoafAt) + 0.4, 0.5) * (1 - progress(t, at(kShardAt) - 0.4, 0.4));
        const TextStyle heading{frame::kBodySize + 2, Weight::semibold, true};
        const std::string line = "Model states: " + format_bytes(value(t, model_states_)) +
                                 ", one card holds " +
                                 format_bytes(report_at(t).per_gpu.capacity.value);
        s.add(Text{kCardsLeft, 290, line, heading, palette_.text}, in);
    }

    TextStyle fit(const std::string& text, TextStyle style) const {
        style.size = fit_size(metrics_, text, style, kCardsRight - kCardsLeft);
        return style;
    }

    std::vector<engine::FsdpPlan> plans_;
    std::vector<double> per_card_, fsdp_bytes_, fsdp_time_, dp_bytes_, buffer_, model_states_,
        sharded_, peak_;
    std::vector<Phase> film_;
    int slices_ = 1, per_slice_ = 1;
};

std::unique_ptr<Chapter> make(const ChapterSpec& spec, const Video& video,
                              const TextMetrics& metrics) {
    return std::make_unique<FsdpChapter>(spec, video, metrics);
}

// The loaf and each card's workspace draw one cell per shard, i.e. per GPU.
std::optional<std::string> too_large(const engine::Config& c) {
    if (c.layout.gpus <= kMaxShards) return std::nullopt;
    return "fsdp_gather draws at most " + std::to_string(kMaxShards) + " GPUs, got " +
           std::to_string(c.layout.gpus);
}

const KindRegistrar registrar{{"fsdp_gather",
                               kDefaultDuration,
                               {"gpus", "model", "precision", "network", "nvlink"},
                               make,
                               too_large}};

}  // namespace

}  // namespace story
