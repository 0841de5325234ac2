// `ring_allreduce`: data parallelism. N cards around a ring, each with a full copy of the model
// and its own slice of the batch; the gradient buffer, cut into N chunks, travels the ring chunk
// by chunk (reduce-scatter, then all-gather) exactly as engine::ring_allreduce_schedule orders
// it, and the bytes each card sends, 2(N-1)/N x B, read out with their time on the link.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "engine/comm.hpp"
#include "engine/layout3d.hpp"
#include "engine/memory.hpp"
#include "story/chapter_base.hpp"
#include "story/format.hpp"
#include "story/shard_kit.hpp"
#include "story/vocab.hpp"

namespace story {

namespace {

constexpr double kDefaultDuration = 24;
constexpr int kMaxRingGpus = 128;
// Choreography, in seconds of the default duration.
constexpr double kCardsAt = 0.3, kBatchAt = 2.0, kGradsAt = 3.6, kRingAt = 5.2, kStep = 0.6;
constexpr double kReadoutAt = 14.0;
constexpr double kMoveShare = 0.7;  // of each step the chunks travel; then they settle

// The ring: a stadium (two straights, two half circles) around the middle of the picture.
constexpr double kCx = 960, kCy = 570, kRadius = 225, kHalf = 500;
constexpr double kArc = std::numbers::pi * kRadius;
constexpr double kPerimeter = 4 * kHalf + 2 * kArc;
constexpr double kStripGap = 6, kStripH = 24;
constexpr double kMaxSpill = 0.2;  // overflow drawn above a card, as a fraction of its height  //
                                   // each card's gradient buffer, under the card

// Clockwise from the top centre, s along the stadium's outline.
Point on_ring(double s) {
    s = std::fmod(std::fmod(s, kPerimeter) + kPerimeter, kPerimeter);
    if (s < kHalf) return {kCx + s, kCy - kRadius};
    s -= kHalf;
    if (s < kArc)
        return {kCx + kHalf + kRadius * std::sin(s / kRadius),
                kCy - kRadius * std::cos(s / kRadius)};
    s -= kArc;
    if (s < 2 * kHalf) return {kCx + kHalf - s, kCy + kRadius};
    s -= 2 * kHalf;
    if (s < kArc)
        return {kCx - kHalf - kRadius * std::sin(s / kRadius),
                kCy + kRadius * std::cos(s / kRadius)};
    return {kCx - kHalf + (s - kArc), kCy - kRadius};
}

// The start (clockwise s) of each stretch of the stadium: the top straight's right half, the right
// half circle, the bottom straight, the left half circle, the top straight's left half.
constexpr double kStretches[] = {
    0, kHalf, kHalf + kArc, 3 * kHalf + kArc, 3 * kHalf + 2 * kArc, kPerimeter};
constexpr double kArcStep = 10;  // px between the points that draw a half circle

// The next point after s worth drawing along the outline: the end of a straight, or a short step
// along a half circle.
double next_vertex(double s) {
    const double base = std::floor(s / kPerimeter) * kPerimeter, local = s - base;
    for (int k = 0; k + 1 < static_cast<int>(std::size(kStretches)); ++k) {
        if (local >= kStretches[k + 1]) continue;
        const bool arc = k == 1 || k == 3;
        return base + (arc ? std::min(kStretches[k + 1], local + kArcStep) : kStretches[k + 1]);
    }
    return s + kArcStep;  // unreachable: local < kPerimeter
}

// The outline from s = from to s = to (clockwise, to >= from), as a polyline.
std::vector<Point> ring_points(double from, double to) {
    std::vector<Point> out{on_ring(from)};
    for (double s = from; s < to;) {
        s = std::min(to, next_vertex(s));
        out.push_back(on_ring(s));
    }
    return out;
}

// Rank i of n sits half a slot past the top centre, so the ring is mirror-symmetric.
double ring_s(int n, int i) { return kPerimeter * (i + 0.5) / n; }

Box card_box(int n, double s) {
    const double slot = kPerimeter / n;
    const double w = std::clamp(0.45 * slot, 96.0, 152.0),
                 h = std::clamp(0.526 * slot, 112.0, 172.0);
    const Point c = on_ring(s);
    return {c.x - w / 2, c.y - h / 2, w, h};
}

// The card with its overflow above and its strip below, for links to keep clear of.
Box with_strip(const Box& b) {
    const double spill = kMaxSpill * b.h;
    return {b.x, b.y - spill, b.w, b.h + spill + kStripGap + kStripH};
}

bool inside(const Box& b, Point p, double margin) {
    return p.x > b.x - margin && p.x < b.x + b.w + margin && p.y > b.y - margin &&
           p.y < b.y + b.h + margin;
}

// Walking the outline from a card's centre s towards `limit`, where it leaves the card's box grown
// by margin (at most halfway to limit, so two neighbours never claim the same stretch).
double leave(const Box& b, double s, double limit, double margin) {
    const double dir = limit > s ? 1 : -1, last = (s + limit) / 2;
    constexpr double kProbe = 2;  // px per probe: exact enough for where a line starts
    while ((last - s) * dir > 0 && inside(b, on_ring(s), margin)) s += dir * kProbe;
    return s;
}

// A link's stretch of the outline, from where it leaves one card to where it meets the next.
struct Span {
    double from = 0, to = 0;  // s along the ring, clockwise
    Point at(double u) const { return on_ring(lerp(from, to, u)); }
};

// Contributions summed into each chunk of each rank's buffer: counts[step][rank][chunk],
// replaying the engine's schedule (reduce-scatter adds, all-gather copies).
using Counts = std::vector<std::vector<int>>;
std::vector<Counts> replay(const engine::RingSchedule& ring) {
    std::vector<Counts> out{Counts(ring.n, std::vector<int>(ring.n, 1))};
    for (int step = 0; step < ring.steps(); ++step) {
        Counts next = out.back();
        for (const engine::ChunkTransfer& x : ring.transfers) {
            if (x.step != step) continue;
            const int sent = out.back()[x.src][x.chunk];
            next[x.dst][x.chunk] = x.gather ? sent : next[x.dst][x.chunk] + sent;
        }
        out.push_back(std::move(next));
    }
    return out;
}

// One playing of the all-reduce: the engine's schedule for this state's N, and when it runs.
struct Run {
    engine::RingSchedule ring;
    std::vector<Counts> counts;
    std::vector<int> node;  // node of each rank (engine layout), to tell NVLink from network
    double start = 0, step = 0;
    bool plays = false;
    double end() const { return start + step * ring.steps(); }
};

// Where the ring stands at t: which step, how far the chunks have travelled.
struct RunPhase {
    int step = -1;    // -1: before the first step; steps(): finished
    double move = 0;  // linear progress of the chunks on the links, 0..1
    bool moving = false;
};

class RingChapter final : public ChapterBase {
  public:
    RingChapter(const ChapterSpec& spec, const Video& video, const TextMetrics& metrics)
        : ChapterBase(spec, video, metrics) {
        for (std::size_t k = 0; k < timeline_.states().size(); ++k) {
            const engine::Config& c = timeline_.states()[k];
            buffer_.push_back(
                engine::params_per_gpu(c.model, c.layout) *
                engine::bytes_per_param(c.training.precision, c.training.grad_dtype).gradients);
            bandwidth_.push_back(engine::group_bandwidth(c, engine::Group::dp).value);
            runs_.push_back(make_run(static_cast<int>(k)));
        }
    }

    Scene scene_at(double t) const override {
        Scene s = blank();
        const Morph m = timeline_.morph_at(t);
        add_links(s, t, m);
        add_cards(s, t, m);
        add_batch(s, t);
        add_run_tokens(s, t, m);
        add_legend(s, t, m);
        add_readout(s, t, m);
        add_frame(s, t);
        return s;
    }

  private:
    double at(double authored) const {
        return scaled_time(authored, spec_.duration, kDefaultDuration);
    }
    int gpus(int state) const { return timeline_.states()[state].layout.gpus; }

    // End of the k-th `set:` morph (k >= 1).
    double morph_end(int k) const {
        int seen = 0;
        for (const Beat& b : spec_.beats)
            if (!b.set.empty() && ++seen == k) return b.at + b.over;
        return 0;
    }

    Run make_run(int k) const {
        const engine::Config& c = timeline_.states()[k];
        Run run{engine::ring_allreduce_schedule(c.layout.gpus), {}, {}, 0, 0, false};
        run.counts = replay(run.ring);
        for (const engine::RankPlace& r :
             engine::layout_3d(c.layout, c.cluster.gpus_per_node).ranks)
            run.node.push_back(r.node);
        const int steps = run.ring.steps();
        const bool last = k + 1 == static_cast<int>(timeline_.states().size());
        const double next = last ? spec_.duration : timeline_.state_start(k + 1);
        run.start = k == 0 ? at(kRingAt) : morph_end(k) + 0.5;
        const double room = (k == 0 ? next - 0.3 : next - 0.8) - run.start;
        if (steps == 0 || room <= 0) return run;
        run.step = std::min(at(kStep), room / steps);
        run.plays = run.step >= 0.12;
        return run;
    }

    RunPhase phase(const Run& run, double t) const {
        if (!run.plays || t < run.start) return {};
        if (t >= run.end()) return {run.ring.steps(), 1, false};
        const double x = (t - run.start) / run.step;
        const int step = std::min(static_cast<int>(x), run.ring.steps() - 1);
        const double local = x - step;
        return {step, std::min(1.0, local / kMoveShare), local < kMoveShare};
    }

    // Counts drawn at t: a chunk joins its new card once it has arrived.
    const Counts& counts_at(const Run& run, double t) const {
        const RunPhase p = phase(run, t);
        if (p.step < 0) return run.counts.front();
        if (p.step >= run.ring.steps()) return run.counts.back();
        return run.counts[p.moving ? p.step : p.step + 1];
    }

    // How far card i has slid at t while N morphs. A growing ring slides first and then fades
    // the new cards in; a shrinking one fades the leavers out first, so none cross.
    double slide(const Morph& m) const {
        return gpus(m.to) >= gpus(m.from) ? std::clamp(m.u / 0.5, 0.0, 1.0)
                                          : std::clamp((m.u - 0.5) / 0.5, 0.0, 1.0);
    }

    // Card i's place along the ring at t.
    double card_s(const Morph& m, int i) const {
        const int from = gpus(m.from), to = gpus(m.to);
        if (i >= from) return ring_s(to, i);
        return lerp(ring_s(from, i), ring_s(to, std::min(i, to - 1)), slide(m));
    }

    // Card i's box at t: centred on its place, sized between the two rings' card sizes.
    Box box(const Morph& m, int i) const {
        const int from = gpus(m.from), to = gpus(m.to);
        if (i >= from) return card_box(to, ring_s(to, i));
        const Box a = card_box(from, ring_s(from, i)),
                  b = card_box(to, ring_s(to, std::min(i, to - 1)));
        const Box sized = lerp_box(a, b, slide(m));
        const Point c = on_ring(card_s(m, i));
        return {c.x - sized.w / 2, c.y - sized.h / 2, sized.w, sized.h};
    }

    // How visible card i is: staggered entrance, new ranks fading in, dropped ranks out.
    double card_alpha(double t, const Morph& m, int i) const {
        const int from = gpus(m.from), to = gpus(m.to);
        double a = progress(t, at(kCardsAt) + 0.07 * std::min(i, 15), 0.5);
        if (i >= from) {
            const double start = 0.5 + 0.3 * (i - from) / std::max(1, to - from);
            a *= std::clamp((m.u - start) / 0.2, 0.0, 1.0);
        }
        if (i >= to) a *= 1 - std::min(1.0, 2 * m.u);
        return std::clamp(a, 0.0, 1.0);
    }

    // Which state's strips and links show: the old ring until halfway through a morph.
    int shown_state(const Morph& m) const { return m.u < 0.5 ? m.from : m.to; }
    double swap_alpha(const Morph& m) const { return m.from == m.to ? 1 : std::abs(2 * m.u - 1); }

    void add_cards(Scene& s, double t, const Morph& m) const {
        const int n = std::max(gpus(m.from), gpus(m.to));
        const auto& r = report_at(t);
        const double w =
            figure_at(t, [](const engine::Report& x) { return x.per_gpu.weights.value; });
        const double g =
            figure_at(t, [](const engine::Report& x) { return x.per_gpu.gradients.value; });
        const double o =
            figure_at(t, [](const engine::Report& x) { return x.per_gpu.optimizer.value; });
        const double a =
            figure_at(t, [](const engine::Report& x) { return x.per_gpu.activations.value; });
        const int k = shown_state(m);
        const Run& run = runs_[k];
        const Counts& counts = counts_at(run, t);
        const double strips = progress(t, at(kGradsAt), 0.5) * swap_alpha(m);
        for (int i = 0; i < n; ++i) {
            const double alpha = card_alpha(t, m, i);
            if (alpha <= 0) continue;
            const Box b = box(m, i);
            CardSpec card{b.x,
                          b.y,
                          b.w,
                          b.h,
                          "GPU " + std::to_string(i),
                          r.per_gpu.capacity.value,
                          states_stack(palette_, w, g, o, a)};
            card.label_size = b.w < 130 ? 22 : 26;
            card.capacity_label = false;
            card.max_spill = kMaxSpill;
            auto items = gpu_card(palette_, metrics_, card);
            add_all(
                s, i == 0 ? std::move(items) : without_spill_label(std::move(items), palette_.comm),
                alpha);
            if (i < run.ring.n) add_strip(s, b, counts[i], i, run, t, alpha * strips);
        }
    }

    // Card i's gradient buffer: N cells, each filled by the share of the N contributions summed
    // into it; the chunk a rank finished reducing is outlined.
    void add_strip(Scene& s, const Box& card, const std::vector<int>& count, int rank,
                   const Run& run, double t, double alpha) const {
        if (alpha <= 0) return;
        const int n = static_cast<int>(count.size());
        const double left = card.x + 4, width = card.w - 8, top = card.y + card.h + kStripGap;
        const double gap = width / n >= 8 ? 2 : 1, cell = (width - gap * (n - 1)) / n;
        const RunPhase p = phase(run, t);
        const bool reduced = p.step >= n - 1;  // reduce-scatter finished
        for (int c = 0; c < n; ++c) {
            const double x = left + c * (cell + gap), fill = kStripH * count[c] / n;
            s.add(Rect{x, top, cell, kStripH, 2, palette_.panel, palette_.grid, 1}, alpha);
            s.add(Rect{x, top + kStripH - fill, cell, fill, 1, palette_.gradients}, alpha);
            if (reduced && c == (rank + 1) % n && n > 1)
                s.add(Rect{x - 1, top - 1, cell + 2, kStripH + 2, 2, std::nullopt,
                           palette_.highlight, 2},
                      alpha);
        }
    }

    // The link from card a to the next card b follows the ring's outline rather than cutting
    // the chord between them: with few cards a chord crosses the middle, where the legend and
    // read-out sit, while the outline keeps clear of them for any N.
    Span link_span(const Morph& m, int a, int b) const {
        const double sa = card_s(m, a);
        double sb = card_s(m, b);
        while (sb <= sa) sb += kPerimeter;  // clockwise from a, around the top centre if need be
        constexpr double kMargin = 8;
        return {leave(with_strip(box(m, a)), sa, sb, kMargin),
                leave(with_strip(box(m, b)), sb, sa, kMargin)};
    }

    // A link drawn along its stretch of the outline, its head on the last few px.
    void add_link(Scene& s, const Span& span, Color color, double width, double alpha) const {
        constexpr double kHead = 14;
        if (span.to - span.from < kHead) return;  // cards touching: no room for a link
        s.add(Path{ring_points(span.from, span.to - kHead), false, std::nullopt, color, width},
              alpha);
        s.add(Arrow{on_ring(span.to - kHead), on_ring(span.to), color, width, kHead}, alpha);
    }

    void add_links(Scene& s, double t, const Morph& m) const {
        const int k = shown_state(m);
        const Run& run = runs_[k];
        const int n = run.ring.n;
        if (n < 2) return;
        const double alpha = progress(t, at(kCardsAt) + 0.6, 0.5) * swap_alpha(m);
        const RunPhase p = phase(run, t);
        for (int r = 0; r < n; ++r) {
            const int next = (r + 1) % n;
            const Span span = link_span(m, r, next);
            const double width =
                run.node[r] == run.node[next] ? 6.0 : 2.0;  // NVLink thick, the network thin
            add_link(s, span, palette_.muted, width, alpha);
            if (p.moving) add_link(s, span, palette_.comm, width, alpha * 0.9);
        }
    }

    void add_run_tokens(Scene& s, double t, const Morph& m) const {
        if (m.u < 1) return;
        const Run& run = runs_[m.to];
        const RunPhase p = phase(run, t);
        if (!p.moving) return;
        const int n = run.ring.n;
        const double size = n <= 8 ? 30 : 20;
        for (const engine::ChunkTransfer& x : run.ring.transfers) {
            if (x.step != p.step) continue;
            add_token(s, palette_, metrics_, link_span(m, x.src, x.dst).at(p.move), size,
                      palette_.gradients, std::to_string(x.chunk), 1);
        }
    }

    // The global batch splitting into one slice per card.
    void add_batch(Scene& s, double t) const {
        const double in = progress(t, at(kBatchAt), 0.5),
                     fly = progress(t, at(kBatchAt) + 0.8, 0.9);
        const double out = 1 - progress(t, at(kBatchAt) + 1.5, 0.3);
        if (in <= 0 || out <= 0) return;
        const Morph m = timeline_.morph_at(t);
        const int n = gpus(m.to);
        const double w = 480, x0 = kCx - w / 2, y = 530, piece = w / n;
        const TextStyle label{frame::kLabelSize, Weight::medium, false};
        s.add(Text{kCx, y - 20, "Global batch: one slice per card", label, palette_.text,
                   Align::center},
              in * (1 - fly));
        for (int i = 0; i < n; ++i) {
            const Box b = box(m, i);
            const double x = lerp(x0 + i * piece, b.cx() - piece / 2, fly);
            const double yy = lerp(y, b.cy(), fly);
            s.add(Rect{x + 1, yy, piece - 2, 32, 4, palette_.activations}, in * out);
        }
    }

    // Left of the ring's middle: what the ring is doing, and the buffer cut into N chunks.
    void add_legend(Scene& s, double t, const Morph& m) const {
        const double alpha = progress(t, at(kGradsAt), 0.5) * swap_alpha(m);
        if (alpha <= 0) return;
        const int k = shown_state(m);
        const Run& run = runs_[k];
        const int n = run.ring.n;
        const double left = 440, width = n <= 8 ? 460 : 540, top = 520;
        const TextStyle heading{frame::kBodySize, Weight::semibold, false};
        s.add(Text{left, top - 22, phase_text(run, t), heading, palette_.text}, alpha);
        const double cell = width / n;
        const TextStyle num{22, Weight::semibold, true};
        const bool labelled = metrics_.measure(std::to_string(n - 1), num).advance + 6 <= cell;
        for (int c = 0; c < n; ++c) {
            s.add(Rect{left + c * cell + 1, top, cell - 2, 36, 4, palette_.gradients}, alpha);
            if (labelled)
                s.add(Text{left + (c + 0.5) * cell, top + 26, std::to_string(c), num,
                           palette_.background, Align::center},
                      alpha);
        }
        const double buffer = morph_value(timeline_, t, buffer_);
        const TextStyle note{frame::kLabelSize, Weight::regular, false};
        s.add(Text{left, top + 78,
                   "Gradient buffer B = " + format_bytes(buffer) + ", in " + std::to_string(n) +
                       " chunks",
                   note, palette_.muted},
              alpha);
    }

    std::string phase_text(const Run& run, double t) const {
        const int n = run.ring.n;
        if (n < 2) return "One card: nothing to average";
        const RunPhase p = phase(run, t);
        if (p.step < 0) return "Each card's own gradients";
        if (p.step >= run.ring.steps()) return "Every card holds the sum";
        const bool gather = p.step >= n - 1;
        const int k = gather ? p.step - (n - 1) : p.step;
        return std::string(gather ? "All-gather" : "Reduce-scatter") + " · step " +
               std::to_string(k + 1) + " of " + std::to_string(n - 1);
    }

    // Right of the ring's middle: the bytes each card sends and their time on the link.
    void add_readout(Scene& s, double t, const Morph& m) const {
        const double alpha = progress(t, at(kReadoutAt), 0.5);
        if (alpha <= 0) return;
        const int n = static_cast<int>(std::lround(lerp(gpus(m.from), gpus(m.to), m.u)));
        const double buffer = morph_value(timeline_, t, buffer_);
        const double sent =
            figure_at(t, [](const engine::Report& r) { return r.comm.dp_per_gpu.value; });
        const double secs =
            figure_at(t, [](const engine::Report& r) { return r.comm.dp_time.value; });
        const double bw = morph_value(timeline_, t, bandwidth_);
        const engine::Config& c = timeline_.states()[m.to];
        const bool nvlink = engine::layout_3d(c.layout, c.cluster.gpus_per_node).dp_within_node();
        const double left = 1010;
        const TextStyle note{frame::kLabelSize, Weight::regular, false};
        const TextStyle big{frame::kHeadingSize, Weight::semibold, true};
        const TextStyle body{30, Weight::regular, true};
        s.add(Text{left, 500,
                   "Each card sends 2 × " + fraction_text(n - 1, n) + " × " + format_bytes(buffer),
                   note, palette_.muted},
              alpha);
        s.add(Text{left, 550, "= " + format_bytes(sent) + " per step", big, palette_.comm}, alpha);
        s.add(Text{left, 598,
                   std::string(nvlink ? "NVLink " : "Network ") + format_bandwidth(bw) +
                       " each way: " + format_time(secs),
                   body, palette_.text},
              alpha);
    }

    std::vector<double> buffer_, bandwidth_;
    std::vector<Run> runs_;
};

std::unique_ptr<Chapter> make(const ChapterSpec& spec, const Video& video,
                              const TextMetrics& metrics) {
    return std::make_unique<RingChapter>(spec, video, metrics);
}

// The replayed schedule holds N x N chunk counts for each of 2(N-1) steps.
std::optional<std::string> too_large(const engine::Config& c) {
    if (c.layout.gpus <= kMaxRingGpus) return std::nullopt;
    return "ring_allreduce draws at most " + std::to_string(kMaxRingGpus) + " GPUs, got " +
           std::to_string(c.layout.gpus);
}

const KindRegistrar registrar{
    {"ring_allreduce",
     kDefaultDuration,
     {"gpus", "model", "precision", "grad_dtype", "network", "nvlink", "gpu"},
     make,
     too_large}};

}  // namespace

}  // namespace story
