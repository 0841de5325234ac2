// `tensor_parallel`: Megatron's split of one MLP block across t GPUs. X is copied to every GPU,
// A is split by columns (each GPU applies GeLU to its own slice, no traffic), B by rows (each
// GPU holds a partial Y), then an all-reduce over NVLink sums the partials: four per layer.
// Beside it, the memory per GPU against no split, and the step's traffic timed on NVLink vs
// the network. `set: {tp: 4}` morphs the lanes and slices from 2 to 4.
#include "engine/tensor_parallel.hpp"

#include <algorithm>
#include <cmath>

#include "engine/memory.hpp"
#include "story/chapter_base.hpp"
#include "story/format.hpp"
#include "story/strategy_kit.hpp"
#include "story/vocab.hpp"

namespace story {

namespace {

constexpr double kDefaultDuration = 24;
// Choreography, in seconds of the default duration.
constexpr double kLanesAt = 0.4, kSplitAAt = 2.2, kGeluAt = 4.0, kSplitBAt = 5.8, kReduceAt = 8.0;
constexpr double kReduceFor = 1.2;  // each of the four all-reduces
constexpr double kMemoryAt = 13.2, kLinksAt = 16.0;

// The MLP diagram: one lane per GPU.
constexpr double kLaneLeft = frame::kLeft, kLaneRight = 1030, kLanesTop = 330, kLanesBottom = 880,
                 kLaneGap = 14;
constexpr double kColX = 290, kColA = 450, kColZ = 610, kColB = 770, kColY = 930, kBusX = 1080;
// Right column: memory cards, then the traffic.
constexpr double kRightX = 1200, kRightW = frame::kRight - kRightX;

struct Lane {
    double y = 0, h = 0;
    double mid() const { return y + h / 2; }
};

Lane lane(int t, int i) {
    const double h = (kLanesBottom - kLanesTop - kLaneGap * (t - 1)) / t;
    return {kLanesTop + i * (h + kLaneGap), h};
}

double box_size(const Lane& l) { return std::min(110.0, l.h - 34); }

// Per state: the GPU's memory with this split and with none, and the traffic figures.
struct TpState {
    engine::PerGpu split, unsplit;
    engine::Bytes buffer;
    engine::TpLinkTimes links;
};

std::vector<TpState> tp_states(const std::vector<engine::Config>& states) {
    std::vector<TpState> out;
    for (const engine::Config& c : states) {
        engine::Config one = c;
        one.layout.tp = 1;
        out.push_back({engine::per_gpu_memory(c), engine::per_gpu_memory(one),
                       engine::tp_allreduce_buffer(c), engine::tp_link_times(c)});
    }
    return out;
}

// A point moving at constant speed along a polyline, u in [0, 1].
Point along(const std::vector<Point>& path, double u) {
    double total = 0;
    for (std::size_t i = 1; i < path.size(); ++i)
        total += std::hypot(path[i].x - path[i - 1].x, path[i].y - path[i - 1].y);
    double left = std::clamp(u, 0.0, 1.0) * total;
    for (std::size_t i = 1; i < path.size(); ++i) {
        const double len = std::hypot(path[i].x - path[i - 1].x, path[i].y - path[i - 1].y);
        if (left <= len && len > 0) {
            const double k = left / len;
            return {lerp(path[i - 1].x, path[i].x, k), lerp(path[i - 1].y, path[i].y, k)};
        }
        left -= len;
    }
    return path.back();
}

class TensorParallelChapter final : public ChapterBase {
  public:
    TensorParallelChapter(const ChapterSpec& spec, const Video& video, const TextMetrics& metrics)
        : ChapterBase(spec, video, metrics), tp_(tp_states(timeline_.states())) {}

    Scene scene_at(double t) const override {
        Scene s = blank();
        const Morph m = timeline_.morph_at(t);
        add_headers(s, t);
        add_lanes(s, t, m);
        add_bus(s, t, m);
        add_memory(s, t);
        add_traffic(s, t);
        add_frame(s, t);
        return s;
    }

  private:
    double at(double authored) const {
        return scaled_time(authored, spec_.duration, kDefaultDuration);
    }
    int degree(int k) const { return timeline_.states()[k].layout.tp; }
    // Kept lanes (and their slices) move in the first half of a growing morph, the second
    // half of a shrinking one; lanes that come or go use the other half.
    double move(const Morph& m) const {
        return std::clamp(degree(m.to) >= degree(m.from) ? 2 * m.u : 2 * m.u - 1, 0.0, 1.0);
    }
    double tp_at(const Morph& m) const { return lerp(degree(m.from), degree(m.to), move(m)); }
    // The k-th all-reduce runs over [start, start + kReduceFor).
    double reduce_start(int k) const { return at(kReduceAt) + k * at(kReduceFor); }
    // Partial sums turn into the full Y once the first all-reduce has returned.
    double summed(double t) const {
        return progress(t, reduce_start(0) + at(kReduceFor) * 0.9, 0.3);
    }

    void add_headers(Scene& s, double t) const {
        const struct {
            double x, at;
            const char* text;
        } heads[] = {{kColX, kLanesAt, "X, copied"},  {kColA, kSplitAAt, "A by columns"},
                     {kColZ, kGeluAt, "GeLU, local"}, {kColB, kSplitBAt, "B by rows"},
                     {kColY, kSplitBAt, "partial Y"}, {kBusX, kReduceAt, "all-reduce"}};
        TextStyle style{frame::kLabelSize, Weight::semibold, false};
        for (const auto& h : heads)
            style.size = std::min(style.size, fit_size(metrics_, h.text, style, 154));
        for (const auto& h : heads)
            s.add(Text{h.x, 306, h.text, style, palette_.text, Align::center},
                  progress(t, at(h.at), 0.5));
    }

    struct LaneView {
        Lane lane;
        double alpha = 1;
    };

    // Lanes while tp morphs, in two halves so they never overlap.
    std::vector<LaneView> lanes_at(const Morph& m) const {
        const int from = degree(m.from), to = degree(m.to);
        const double first = std::clamp(2 * m.u, 0.0, 1.0),
                     second = std::clamp(2 * m.u - 1, 0.0, 1.0);
        const double k = move(m);
        std::vector<LaneView> out;
        for (int i = 0; i < std::max(from, to); ++i) {
            if (i >= from)
                out.push_back({lane(to, i), second});
            else if (i >= to)
                out.push_back({lane(from, i), 1 - first});
            else {
                const Lane a = lane(from, i), b = lane(to, i);
                out.push_back({{lerp(a.y, b.y, k), lerp(a.h, b.h, k)}, 1});
            }
        }
        return out;
    }

    void add_lanes(Scene& s, double t, const Morph& m) const {
        const double tp = tp_at(m);
        const auto views = lanes_at(m);
        for (std::size_t i = 0; i < views.size(); ++i)
            if (views[i].alpha > 0) add_lane(s, t, views[i].lane, int(i), tp, views[i].alpha);
    }

    void add_lane(Scene& s, double t, const Lane& l, int i, double tp, double alpha) const {
        const double enter = progress(t, at(kLanesAt) + 0.08 * i, 0.5) * alpha;
        s.add(
            Rect{kLaneLeft, l.y, kLaneRight - kLaneLeft, l.h, 12, palette_.panel, palette_.grid, 2},
            enter);
        TextStyle name{frame::kLabelSize, Weight::medium, false};
        s.add(Text{kLaneLeft + 18, l.mid() + 9, "GPU " + std::to_string(i), name, palette_.muted},
              enter);
        const double b = box_size(l), top = l.mid() - b / 2;
        s.add(Rect{kColX - b / 2, top, b, b, 4, palette_.activations}, enter);
        add_operator(s, (kColX + kColA) / 2, l, "×", progress(t, at(kSplitAAt), 0.5) * alpha);
        add_sliced(s, kColA, top, b, i, tp, true, palette_.weights,
                   progress(t, at(kSplitAAt) + 0.08 * i, 0.5) * alpha);
        add_operator(s, (kColA + kColZ) / 2, l, "=", progress(t, at(kGeluAt), 0.5) * alpha);
        add_sliced(s, kColZ, top, b, i, tp, true, palette_.activations,
                   progress(t, at(kGeluAt) + 0.08 * i, 0.5) * alpha);
        add_operator(s, (kColZ + kColB) / 2, l, "×", progress(t, at(kSplitBAt), 0.5) * alpha);
        add_sliced(s, kColB, top, b, i, tp, false, palette_.weights,
                   progress(t, at(kSplitBAt) + 0.08 * i, 0.5) * alpha);
        add_operator(s, (kColB + kColY) / 2, l, "=", progress(t, at(kSplitBAt) + 0.3, 0.5) * alpha);
        add_partial(s, t, kColY - b / 2, top, b,
                    progress(t, at(kSplitBAt) + 0.3 + 0.08 * i, 0.5) * alpha);
    }

    void add_operator(Scene& s, double x, const Lane& l, const char* op, double alpha) const {
        const TextStyle style{frame::kBodySize, Weight::regular, false};
        s.add(Text{x, l.mid() + 12, op, style, palette_.muted, Align::center}, alpha);
    }

    // The full matrix as a ghost, cut into t slices (columns or rows), this GPU's slice filled.
    void add_sliced(Scene& s, double cx, double top, double b, int i, double tp, bool columns,
                    Color fill, double alpha) const {
        if (alpha <= 0) return;
        const double x = cx - b / 2, part = b / tp;
        s.add(Rect{x, top, b, b, 4, std::nullopt, palette_.grid, 2, true}, alpha);
        const Rect slice = columns ? Rect{x + i * part, top, part, b, 2, fill}
                                   : Rect{x, top + i * part, b, part, 2, fill};
        s.add(slice, alpha);
        for (int k = 1; k < std::ceil(tp); ++k) {
            const double d = k * part;
            if (d >= b - 0.5) break;
            s.add(columns ? Line{{x + d, top}, {x + d, top + b}, palette_.grid, 1.5}
                          : Line{{x, top + d}, {x + b, top + d}, palette_.grid, 1.5},
                  alpha);
        }
    }

    // A partial sum is drawn faint; once the all-reduce has returned it is the whole Y.
    void add_partial(Scene& s, double t, double x, double top, double b, double alpha) const {
        if (alpha <= 0) return;
        const double full = summed(t);
        s.add(Rect{x, top, b, b, 4, with_alpha(palette_.activations, lerp(0.3, 1, full)),
                   palette_.activations, 2},
              alpha);
        TextStyle label{std::min(frame::kLabelSize, b * 0.28), Weight::semibold, false};
        label.size = std::max(label.size, frame::kMinTextSize);
        s.add(Text{x + b / 2, top + b / 2 + label.size * 0.35, "Y", label,
                   readable_on(palette_, palette_.activations), Align::center},
              alpha * full);
    }

    // NVLink between the GPUs: a thick bus; during each all-reduce a chunk leaves every
    // partial Y, meets the others on the bus (the sum) and comes back, at constant speed.
    void add_bus(Scene& s, double t, const Morph& m) const {
        const double alpha = progress(t, at(kReduceAt) - 0.4, 0.5);
        if (alpha <= 0) return;
        const auto views = lanes_at(m);
        double top = views.front().lane.mid(), bottom = top;
        for (const LaneView& v : views)
            bottom = lerp(bottom, std::max(bottom, v.lane.mid()), v.alpha);
        const double mid = (top + bottom) / 2;
        s.add(Line{{kBusX, top}, {kBusX, bottom}, palette_.comm, 8}, alpha);
        const TextStyle tag{frame::kLabelSize, Weight::semibold, false};
        s.add(Text{kBusX + 14, mid + 9, "NVLink", tag, palette_.comm}, alpha);
        for (const LaneView& v : views) {
            const Lane& l = v.lane;
            const double edge = kColY + box_size(l) / 2;
            s.add(Line{{edge, l.mid()}, {kBusX, l.mid()}, palette_.comm, 5}, alpha * v.alpha);
            for (int k = 0; k < engine::kTpAllReducesPerLayer; ++k) {
                const double u = progress(t, reduce_start(k), at(kReduceFor), Ease::linear);
                if (u <= 0 || u >= 1) continue;
                const std::vector<Point> there{{edge, l.mid()}, {kBusX, l.mid()}, {kBusX, mid}};
                const Point p = u < 0.5 ? along(there, u * 2)
                                        : along({there.rbegin(), there.rend()}, u * 2 - 1);
                s.add(Rect{p.x - 11, p.y - 11, 22, 22, 4, palette_.comm, palette_.text, 1.5},
                      v.alpha);
            }
        }
    }

    void add_memory(Scene& s, double t) const {
        const double alpha = progress(t, at(kMemoryAt), 0.5);
        if (alpha <= 0) return;
        const auto stack = [&](bool split) {
            const auto fig = [&](auto field) { return lerp_state(t, split, field); };
            return std::vector<MemorySegment>{
                {fig(&engine::PerGpu::weights), palette_.weights},
                {fig(&engine::PerGpu::gradients), palette_.gradients},
                {fig(&engine::PerGpu::optimizer), palette_.optimizer},
                {fig(&engine::PerGpu::activations), palette_.activations}};
        };
        const double w = 250, h = 270, top = 350, gap = kRightW - 2 * w;
        const double cap = timeline_.states()[timeline_.morph_at(t).to].cluster.gpu.memory.value;
        const std::string tp =
            count_text(degree(timeline_.morph_at(t).from), degree(timeline_.morph_at(t).to),
                       timeline_.morph_at(t).u);
        add_card(s, {kRightX, top, w, h, "tp = 1", cap, stack(false)},
                 lerp_state(t, false, &engine::PerGpu::weights), alpha);
        add_card(s, {kRightX + w + gap, top, w, h, "tp = " + tp, cap, stack(true)},
                 lerp_state(t, true, &engine::PerGpu::weights), alpha);
    }

    // A per-GPU figure of this chapter's own states, counting between them while a `set:` morphs.
    double lerp_state(double t, bool split, engine::Bytes engine::PerGpu::*field) const {
        const Morph m = timeline_.morph_at(t);
        const auto get = [&](int k) {
            return ((split ? tp_[k].split : tp_[k].unsplit).*field).value;
        };
        return lerp(get(m.from), get(m.to), m.u);
    }

    void add_card(Scene& s, CardSpec card, double weights, double alpha) const {
        card.max_spill = 0.22;
        for (Item& item : gpu_card(palette_, metrics_, card)) s.add(std::move(item.shape), alpha);
        const TextStyle style{frame::kLabelSize, Weight::regular, true};
        s.add(Text{card.x + card.w / 2, card.y + card.h + 36, "weights " + format_bytes(weights),
                   style, palette_.weights, Align::center},
              alpha);
    }

    // Four all-reduces per layer (pips light as they happen), their size, and a step's worth
    // timed on NVLink and on the network.
    void add_traffic(Scene& s, double t) const {
        const double y0 = 712;
        const double alpha = progress(t, at(kReduceAt), 0.5);
        if (alpha <= 0) return;
        const TextStyle label{frame::kLabelSize, Weight::regular, false};
        int done = 0;
        for (int k = 0; k < engine::kTpAllReducesPerLayer; ++k)
            done += t >= reduce_start(k) + at(kReduceFor) * 0.5;
        const char* pass[] = {"fwd", "fwd", "bwd", "bwd"};
        s.add(Text{kRightX, y0, "All-reduces per layer", label, palette_.text}, alpha);
        for (int k = 0; k < engine::kTpAllReducesPerLayer; ++k) {
            const double x = kRightX + 300 + k * 72;
            const bool lit = k < done;
            s.add(Rect{x, y0 - 26, 62, 36, 6,
                       lit ? std::optional<Color>(palette_.comm) : std::nullopt, palette_.comm, 2},
                  alpha);
            const TextStyle small{22, Weight::medium, false};
            s.add(Text{x + 31, y0 - 1, pass[k], small,
                       lit ? readable_on(palette_, palette_.comm) : palette_.muted, Align::center},
                  alpha);
        }
        const double buffer = lerp_tp(t, [](const TpState& s) { return s.buffer.value; });
        s.add(Text{kRightX, y0 + 40, "each one sums s·b·h activations: " + format_bytes(buffer),
                   label, palette_.muted},
              alpha);
        add_link_times(s, t, y0 + 40);
    }

    double lerp_tp(double t, double (*f)(const TpState&)) const {
        const Morph m = timeline_.morph_at(t);
        return lerp(f(tp_[m.from]), f(tp_[m.to]), m.u);
    }

    void add_link_times(Scene& s, double t, double y) const {
        const double alpha = progress(t, at(kLinksAt), 0.5);
        if (alpha <= 0) return;
        const TextStyle label{frame::kLabelSize, Weight::regular, false};
        const TextStyle value{frame::kLabelSize, Weight::semibold, true};
        const double bytes =
            figure_at(t, [](const engine::Report& r) { return r.comm.tp_per_gpu.value; });
        s.add(Text{kRightX, y + 40, "per GPU per step: " + format_bytes(bytes) + ", which takes",
                   label, palette_.text},
              alpha);
        const double nv = lerp_tp(t, [](const TpState& s) { return s.links.on_nvlink.value; });
        const double net = lerp_tp(t, [](const TpState& s) { return s.links.on_network.value; });
        const double longest = std::max({nv, net, 1e-12});
        const Morph m = timeline_.morph_at(t);
        const struct {
            std::string name;
            double seconds;
            double width;
        } rows[] = {{"NVLink " + format_bandwidth(tp_[m.to].links.nvlink_bw.value), nv, 8},
                    {"network " + format_bandwidth(tp_[m.to].links.network_bw.value), net, 3}};
        const double bar_x = kRightX + 230, bar_w = kRightW - 230 - 150;  // room for "1,000 ms"
        for (int k = 0; k < 2; ++k) {
            const double yy = y + 84 + k * 38;
            s.add(Text{kRightX, yy, rows[k].name, label, palette_.muted}, alpha);
            const double w = bar_w * rows[k].seconds / longest;
            s.add(Rect{bar_x, yy - 20, w, 22, 3, palette_.comm}, alpha);
            s.add(Text{bar_x + w + 12, yy, format_time(rows[k].seconds), value, palette_.text},
                  alpha);
        }
    }

    const std::vector<TpState> tp_;
};

std::unique_ptr<Chapter> make(const ChapterSpec& spec, const Video& video,
                              const TextMetrics& metrics) {
    return std::make_unique<TensorParallelChapter>(spec, video, metrics);
}

const KindRegistrar registrar{{"tensor_parallel",
                               kDefaultDuration,
                               {"tp", "model", "seq_len", "micro_batch", "nvlink"},
                               make}};

}  // namespace

}  // namespace story
