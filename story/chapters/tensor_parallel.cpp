// `tensor_parallel`: Megatron's split of one MLP block across t GPUs. X is copied to every GPU,
// A is split by columns (each GPU applies GeLU to its own slice, no traffic), B by rows (each
// GPU holds a partial Y), then an all-reduce over NVLink sums the partials: four per layer.
// Beside it, the memory per GPU against no split, and the step's traffic timed on NVLink vs
// the network. `set: {tp: 4}` morphs the lanes and slices from 2 to 4.
#include "engine/tensor_parallel.hpp"

#include <algorithm>
#include <cmath>

#include "engine/memory.hpp"
#include "story/chapter/chapter_base.hpp"
#include "story/draw/draw.hpp"
#include "story/text/format.hpp"
#include "story/vocab/loaf.hpp"
#include "story/vocab/vocab.hpp"

namespace story {

namespace {

constexpr double kDefaultDuration = 24;
// Choreography, in seconds of the default duration.
constexpr double kLanesAt = 0.4, kSplitAAt = 2.2, kGeluAt = 4.0, kSplitBAt = 5.8, kReduceAt = 8.0;
constexpr double kPartialAfter = 0.3;  // the partial Y enters after B's slices
constexpr double kReduceFor = 1.2;     // each of the four all-reduces
constexpr double kMemoryAt = 13.2, kLinksAt = 16.0;
// The partial sums turn into Y near the end of the first all-reduce (share of it), quickly.
constexpr double kSummedAt = 0.9, kSummedFor = 0.3;
constexpr double kPipLitAt = 0.5;  // share of an all-reduce after which its pip lights

// The MLP diagram: one lane per GPU, the matrices at column centres, the NVLink bus at its right.
constexpr Box kLanes{frame::kLeft, 330, 1030 - frame::kLeft, 550};
constexpr double kLaneGap = 14, kLaneRadius = 12, kLaneNameInset = 18;
// Under a lane's name, kLoafGap below its baseline, the loaf: kLoafSlices slices kLoafW wide, each
// at least kLoafMinSlice px tall (else none is drawn). kAscent: of a label's size above its
// baseline.
constexpr double kLoafGap = 12, kLoafW = 72, kLoafMinSlice = 5, kAscent = 0.75;
constexpr int kLoafSlices = 8;
constexpr double kColX = 290, kColA = 450, kColZ = 610, kColB = 770, kColY = 930, kBusX = 1080;
constexpr double kHeadsBaseline = 306, kHeadMaxW = 154;
constexpr double kMatrixMax = 110, kMatrixClear = 34;  // a lane's matrices, and the room around
constexpr double kGhostFaint = 0.3;                    // opacity of a partial sum's fill
constexpr double kBusWidth = 8, kFeedWidth = 5, kTagGap = 14, kToken = 22;
// Right column: the two memory cards, then the traffic read-out.
constexpr double kRightX = 1200;
constexpr Box kMemoryRow{kRightX, 350, frame::kRight - kRightX, 270};
constexpr double kCardW = 250, kCardSpill = 0.22, kCaptionGap = 10;
constexpr double kTrafficTop = 686, kGroupGap = 10;  // the step's traffic a little apart
constexpr double kPipsX = kRightX + 300, kPipW = 62, kPipH = 36, kPipGap = 10;
// Link-time bars start after the row names and leave room for "1,000 ms" after them.
constexpr double kBarX = kRightX + 230, kBarH = 22, kBarGap = 8, kTimeRoom = 150, kTimeGap = 12;

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

// A lane's square matrix centred on column x.
Box matrix(const Box& lane, double x) {
    const double side = std::min(kMatrixMax, lane.h - kMatrixClear);
    return box_around({x, lane.cy()}, side, side);
}

// Slice i of a matrix cut into n (fractional while tp morphs) columns or rows.
Box slice(const Box& b, double n, int i, bool columns) {
    return columns ? Box{b.x + i * b.w / n, b.y, b.w / n, b.h}
                   : Box{b.x, b.y + i * b.h / n, b.w, b.h / n};
}

// A lane's box, its GPU's rank and the tensor-parallel degree of the state on screen.
struct LaneOf {
    Box lane;
    int rank = 0, tp = 1;
};

// A lane drawn at one instant: its box and how visible it is.
struct LaneView {
    Box lane;
    double alpha = 1;
};

// A column header and the step it names.
struct Head {
    double x, at;
    const char* text;
};
constexpr Head kHeads[] = {
    {kColX, kLanesAt, N_("X, copied")},  {kColA, kSplitAAt, N_("A by columns")},
    {kColZ, kGeluAt, N_("GeLU, local")}, {kColB, kSplitBAt, N_("B by rows")},
    {kColY, kSplitBAt, N_("partial Y")}, {kBusX, kReduceAt, N_("all-reduce")}};

class TensorParallelChapter final : public ChapterBase {
  public:
    TensorParallelChapter(const ChapterSpec& spec, const Video& video, const TextMetrics& metrics)
        : ChapterBase(spec, video, metrics),
          tp_(tp_states(timeline_.states())),
          lanes_in_{at(kLanesAt)},
          a_in_{at(kSplitAAt)},
          z_in_{at(kGeluAt)},
          b_in_{at(kSplitBAt)},
          y_in_{at(kSplitBAt) + kPartialAfter},
          bus_in_(Fade::in(at(kReduceAt))),  // the bus with the first all-reduce, on its line
          traffic_in_(Fade::in(at(kReduceAt))),
          memory_in_(Fade::in(at(kMemoryAt))),
          links_in_(Fade::in(at(kLinksAt))),
          unsplit_card_(left_of(kMemoryRow, kCardW)),
          split_card_(right_of(kMemoryRow, kCardW)) {
        for (const engine::Config& c : timeline_.states()) {
            std::vector<Box> lanes;
            for (int i = 0; i < c.layout.tp; ++i)
                lanes.push_back(column_cell(kLanes, c.layout.tp, i, kLaneGap));
            lanes_.push_back(std::move(lanes));
        }
        // The headers share one size, the largest at which each fits its column.
        TextStyle style = weighted(style_of(Role::label), Weight::semibold);
        for (const Head& h : kHeads)
            style.size = std::min(style.size, fit_size(metrics_, tr(h.text), style, kHeadMaxW));
        for (const Head& h : kHeads)
            heads_.push_back(
                {Text{h.x, kHeadsBaseline, tr(h.text), style, palette_.text, Align::center},
                 Fade::in(at(h.at))});
    }

    Scene scene_at(double t) const override {
        Scene s = blank();
        const Morph m = timeline_.morph_at(t);
        for (const auto& [text, fade] : heads_) s.add(text, fade.at(t));
        add_lanes(s, t, m);
        add_bus(s, t, m);
        add_memory(s, t, m);
        add_traffic(s, t, m);
        add_frame(s, t);
        return s;
    }

  private:
    int degree(int k) const { return timeline_.states()[k].layout.tp; }
    // Kept lanes (and their slices) move in the first half of a growing morph, the second
    // half of a shrinking one; lanes that come or go use the other half.
    double move(const Morph& m) const {
        return degree(m.to) >= degree(m.from) ? within(m.u, 0, 0.5) : within(m.u, 0.5, 0.5);
    }
    // The k-th all-reduce runs over [start, start + reduce_for(k)), authored kReduceFor long.
    double reduce_start(int k) const { return at(kReduceAt + k * kReduceFor); }
    double reduce_for(int k) const { return span(kReduceAt + k * kReduceFor, kReduceFor); }
    // Partial sums turn into the full Y once the first all-reduce has returned.
    double summed(double t) const {
        return progress(t, reduce_start(0) + reduce_for(0) * kSummedAt, kSummedFor);
    }

    // Lanes while tp morphs, in two halves so they never overlap.
    std::vector<LaneView> lanes_at(const Morph& m) const {
        const std::vector<Box>&from = lanes_[m.from], &to = lanes_[m.to];
        std::vector<LaneView> out;
        for (std::size_t i = 0; i < std::max(from.size(), to.size()); ++i) {
            if (i >= from.size())
                out.push_back({to[i], arriving(m)});
            else if (i >= to.size())
                out.push_back({from[i], leaving(m)});
            else
                out.push_back({lerp(from[i], to[i], move(m)), 1});
        }
        return out;
    }

    void add_lanes(Scene& s, double t, const Morph& m) const {
        const double tp = lerp(degree(m.from), degree(m.to), move(m));
        const auto views = lanes_at(m);
        for (std::size_t i = 0; i < views.size(); ++i)
            if (views[i].alpha > 0)
                add_lane(s, t, {views[i].lane, int(i), degree(m.shown())}, tp, views[i].alpha);
    }

    // One GPU's lane: X × A-slice = Z-slice × B-slice = partial Y.
    void add_lane(Scene& s, double t, const LaneOf& of, double tp, double alpha) const {
        const Box& lane = of.lane;
        const int i = of.rank;
        const double enter = lanes_in_.at(t, i) * alpha;
        s.add(filled(lane, kLaneRadius, palette_.panel, palette_.grid, 2), enter);
        add_lane_name(s, of, enter);
        s.add(filled(matrix(lane, kColX), 4, palette_.activations), enter);
        add_operator(s, kColX, kColA, lane, "×", a_in_.at(t, 0) * alpha);
        add_sliced(s, matrix(lane, kColA), i, tp, true, palette_.weights, a_in_.at(t, i) * alpha);
        add_operator(s, kColA, kColZ, lane, "=", z_in_.at(t, 0) * alpha);
        add_sliced(s, matrix(lane, kColZ), i, tp, true, palette_.activations,
                   z_in_.at(t, i) * alpha);
        add_operator(s, kColZ, kColB, lane, "×", b_in_.at(t, 0) * alpha);
        add_sliced(s, matrix(lane, kColB), i, tp, false, palette_.weights, b_in_.at(t, i) * alpha);
        add_operator(s, kColB, kColY, lane, "=", y_in_.at(t, 0) * alpha);
        add_partial(s, t, matrix(lane, kColY), y_in_.at(t, i) * alpha);
    }

    // The lane's GPU named at its top left, and under the name the model's loaf with every slice
    // cut lengthwise into tp pieces, the GPU's piece of each held (story/vocab/loaf.hpp).
    void add_lane_name(Scene& s, const LaneOf& of, double alpha) const {
        const Box& lane = of.lane;
        const int i = of.rank;
        const std::string name = tr("GPU {n}", {{"n", i}});
        const TextStyle label = style_of(Role::label);
        const double baseline = lane.y + kLaneNameInset + label.size * kAscent;
        s.add(Text{lane.x + kLaneNameInset, baseline, name, label, palette_.muted}, alpha);
        const Box loaf{lane.x + kLaneNameInset, baseline + kLoafGap, kLoafW,
                       lane.bottom() - kLaneNameInset - baseline - kLoafGap};
        if (loaf.h < kLoafSlices * kLoafMinSlice) return;
        add_loaf_inset(
            s, palette_, loaf, kLoafSlices, of.tp, [i](int, int piece) { return piece == i; },
            alpha);
    }

    // An operator between two columns, centred on the lane.
    void add_operator(Scene& s, double left, double right, const Box& lane, const char* op,
                      double alpha) const {
        const TextStyle style = style_of(Role::body);
        s.add(Text{(left + right) / 2, centred_baseline(metrics_, op, style, lane.cy()), op, style,
                   palette_.muted, Align::center},
              alpha);
    }

    // The full matrix as a ghost, cut into tp slices (columns or rows), this GPU's slice filled.
    void add_sliced(Scene& s, const Box& b, int i, double tp, bool columns, Color fill,
                    double alpha) const {
        if (alpha <= 0) return;
        s.add(outline(b, 4, palette_.grid, 2, true), alpha);
        s.add(filled(slice(b, tp, i, columns), 2, fill), alpha);
        for (int k = 1; k < std::ceil(tp); ++k) {
            const Box next = slice(b, tp, k, columns);
            if ((columns ? next.x - b.x : next.y - b.y) >= (columns ? b.w : b.h) - 0.5) break;
            s.add(columns ? Line{{next.x, b.y}, {next.x, b.bottom()}, palette_.grid, 1.5}
                          : Line{{b.x, next.y}, {b.right(), next.y}, palette_.grid, 1.5},
                  alpha);
        }
    }

    // A partial sum is drawn faint; once the all-reduce has returned it is the whole Y.
    void add_partial(Scene& s, double t, const Box& b, double alpha) const {
        if (alpha <= 0) return;
        const double full = summed(t);
        s.add(filled(b, 4, with_alpha(palette_.activations, lerp(kGhostFaint, 1, full)),
                     palette_.activations, 2),
              alpha);
        // "Y" scales with the matrix, within the label size and the smallest text allowed.
        const TextStyle label =
            sized(weighted(style_of(Role::label), Weight::semibold),
                  std::clamp(b.w * 0.28, frame::kMinTextSize, frame::kLabelSize));
        s.add(Text{b.cx(), centred_baseline(metrics_, "Y", label, b.cy()), "Y", label,
                   readable_on(palette_, palette_.activations), Align::center},
              alpha * full);
    }

    // NVLink between the GPUs: a thick bus; during each all-reduce a chunk leaves every
    // partial Y, meets the others on the bus (the sum) and comes back, at constant speed.
    void add_bus(Scene& s, double t, const Morph& m) const {
        const double alpha = bus_in_.at(t);
        if (alpha <= 0) return;
        const auto views = lanes_at(m);
        double top = views.front().lane.cy(), bottom = top;
        for (const LaneView& v : views)
            bottom = lerp(bottom, std::max(bottom, v.lane.cy()), v.alpha);
        const double mid = (top + bottom) / 2;
        s.add(Line{{kBusX, top}, {kBusX, bottom}, palette_.comm, kBusWidth}, alpha);
        const TextStyle tag = weighted(style_of(Role::label), Weight::semibold);
        s.add(Text{kBusX + kTagGap, centred_baseline(metrics_, "NVLink", tag, mid), "NVLink", tag,
                   palette_.comm},
              alpha);
        for (const LaneView& v : views) {
            const Point from{matrix(v.lane, kColY).right(), v.lane.cy()};
            const Point onto{kBusX, v.lane.cy()};
            s.add(Line{from, onto, palette_.comm, kFeedWidth}, alpha * v.alpha);
            for (int k = 0; k < engine::kTpAllReducesPerLayer; ++k) {
                const double u = progress(t, reduce_start(k), reduce_for(k), Ease::linear);
                if (u <= 0 || u >= 1) continue;
                const Point p = u < 0.5 ? along({from, onto, {kBusX, mid}}, 2 * u)
                                        : along({{kBusX, mid}, onto, from}, 2 * u - 1);
                s.add(filled(box_around(p, kToken, kToken), 4, palette_.comm, palette_.text, 1.5),
                      v.alpha);
            }
        }
    }

    // A per-GPU figure of this chapter's own states: the shown state's while a `set:` morphs.
    double figure(const Morph& m, bool split, engine::Bytes engine::PerGpu::*field) const {
        const TpState& k = tp_[m.shown()];
        return ((split ? k.split : k.unsplit).*field).value;
    }

    // No split beside this split: the memory each GPU holds, its weights written under it.
    void add_memory(Scene& s, double t, const Morph& m) const {
        const double alpha = memory_in_.at(t);
        if (alpha <= 0) return;
        const double capacity = timeline_.states()[m.shown()].cluster.gpu.memory.value;
        const std::string tp = format_int(degree(m.shown()), locale_);
        add_card(s, m, unsplit_card_, "tp = " + format_count(1, locale_), capacity, false, alpha);
        add_card(s, m, split_card_, "tp = " + tp, capacity, true, alpha);
    }

    void add_card(Scene& s, const Morph& m, const Box& b, std::string name, double capacity,
                  bool split, double alpha) const {
        const auto fig = [&](auto field) { return figure(m, split, field); };
        CardSpec card{b.x,
                      b.y,
                      b.w,
                      b.h,
                      std::move(name),
                      capacity,
                      {{fig(&engine::PerGpu::weights), palette_.weights},
                       {fig(&engine::PerGpu::gradients), palette_.gradients},
                       {fig(&engine::PerGpu::optimizer), palette_.optimizer},
                       {fig(&engine::PerGpu::activations), palette_.activations}}};
        card.max_spill = kCardSpill;
        add_items(s, gpu_card(palette_, metrics_, locale_, card), alpha);
        TextColumn(metrics_, b.cx(), b.bottom() + kCaptionGap, Align::center)
            .line(tr("weights {bytes}",
                     {{"bytes", format_bytes(fig(&engine::PerGpu::weights), locale_)}}),
                  tabular(style_of(Role::note)), palette_.weights)
            .add_to(s, alpha);
    }

    // Four all-reduces per layer (pips light as they happen), their size, and a step's worth
    // timed on NVLink and on the network.
    void add_traffic(Scene& s, double t, const Morph& m) const {
        const double alpha = traffic_in_.at(t);
        if (alpha <= 0) return;
        const double buffer = tp_[m.shown()].buffer.value;
        TextColumn col(metrics_, kRightX, kTrafficTop);
        col.line(tr("All-reduces per layer"), Role::note, palette_.text)
            .line(tr("each one sums s·b·h activations: {bytes}",
                     {{"bytes", format_bytes(buffer, locale_)}}),
                  Role::note, palette_.muted);
        col.add_to(s, alpha);
        add_pips(s, t, middle_of(metrics_, col.lines().front()), alpha);
        add_link_times(s, t, m, col.bottom() + kGroupGap);
    }

    void add_pips(Scene& s, double t, double y, double alpha) const {
        const std::string fwd = tr("fwd"), bwd = tr("bwd");
        const std::string pass[] = {fwd, fwd, bwd, bwd};
        const TextStyle small = weighted(style_of(Role::small), Weight::medium);
        const Box row{kPipsX, y - kPipH / 2, 4 * kPipW + 3 * kPipGap, kPipH};
        for (int k = 0; k < engine::kTpAllReducesPerLayer; ++k) {
            const Box pip = row_cell(row, engine::kTpAllReducesPerLayer, k, kPipGap);
            const bool lit = t >= reduce_start(k) + reduce_for(k) * kPipLitAt;
            s.add(Rect{pip.x, pip.y, pip.w, pip.h, 6,
                       lit ? std::optional<Color>(palette_.comm) : std::nullopt, palette_.comm, 2},
                  alpha);
            s.add(
                Text{pip.cx(), centred_baseline(metrics_, pass[k], small, pip.cy()), pass[k], small,
                     lit ? readable_on(palette_, palette_.comm) : palette_.muted, Align::center},
                alpha);
        }
    }

    // The step's bytes per GPU, then one bar per link, as long as the time they take on it.
    void add_link_times(Scene& s, double t, const Morph& m, double top) const {
        const double alpha = links_in_.at(t);
        if (alpha <= 0) return;
        const double bytes =
            figure_at(t, [](const engine::Report& r) { return r.comm.tp_per_gpu.value; });
        const engine::TpLinkTimes& links = tp_[m.shown()].links;
        const double nv = links.on_nvlink.value, net = links.on_network.value;
        const double longest = std::max({nv, net, 1e-12});
        TextColumn col(metrics_, kRightX, top);
        col.line(tr("tp traffic per GPU per step: {bytes}, which takes",
                    {{"bytes", format_bytes(bytes, locale_)}}),
                 Role::note, palette_.text)
            .gap(kBarGap)
            .line(tr("NVLink {bandwidth}",
                     {{"bandwidth", format_bandwidth(links.nvlink_bw.value, locale_)}}),
                  Role::note, palette_.muted)
            .gap(kBarGap)
            .line(tr("network {bandwidth}",
                     {{"bandwidth", format_bandwidth(links.network_bw.value, locale_)}}),
                  Role::note, palette_.muted);
        col.add_to(s, alpha);
        // The bars start after the longer link name (a language's may run past kBarX).
        double names_right = 0;
        for (int k = 1; k <= 2; ++k) {
            const Text& name = col.lines()[k];
            names_right =
                std::max(names_right, name.x + metrics_.measure(name.text, name.style).advance);
        }
        const double bar_x = std::max(kBarX, names_right + kTimeGap);
        const double bar_w = frame::kRight - bar_x - kTimeRoom;
        const double times[] = {nv, net};
        for (int k = 0; k < 2; ++k) {
            const double y = middle_of(metrics_, col.lines()[k + 1]);
            const double w = bar_w * times[k] / longest;
            s.add(filled(Box{bar_x, y - kBarH / 2, w, kBarH}, 3, palette_.comm), alpha);
            const TextStyle value = style_of(Role::figure);
            s.add(Text{bar_x + w + kTimeGap, centred_baseline(metrics_, "0", value, y),
                       format_time(times[k], locale_), value, palette_.text},
                  alpha);
        }
    }

    const std::vector<TpState> tp_;
    const Stagger lanes_in_, a_in_, z_in_, b_in_, y_in_;
    const Fade bus_in_, traffic_in_, memory_in_, links_in_;
    const Box unsplit_card_, split_card_;
    std::vector<std::vector<Box>> lanes_;  // per state, one per GPU
    std::vector<std::pair<Text, Fade>> heads_;
};

const KindRegistrar registrar{{
    .name = "tensor_parallel",
    .default_duration = kDefaultDuration,
    .settable = {"tp", "model", "seq_len", "micro_batch", "nvlink"},
    .make = make_of<TensorParallelChapter>,
    .shows = "an MLP block: the first matrix split by columns, the second by rows, partial "
             "sums all-reduced on NVLink; under each GPU's name the model's loaf, every layer "
             "cut lengthwise, its piece held; four all-reduces per layer; memory 1/t; the same "
             "traffic timed on NVLink and on the network",
    .goldens = {{"chapter_tensor_parallel", 19.5, "the MLP split over the tensor-parallel group"}},
    .phases = {{"lanes", kLanesAt, "one lane per GPU, each with the full input X"},
               {"split_a", kSplitAAt, "the first matrix A cut into column slices"},
               {"gelu", kGeluAt, "each GPU's slice of the hidden layer, and its GeLU"},
               {"split_b", kSplitBAt, "the second matrix B cut into rows; partial sums"},
               {"all_reduce", kReduceAt, "the four all-reduces of a layer on NVLink"},
               {"memory", kMemoryAt, "each GPU's memory: its slice of the weights and state"},
               {"links", kLinksAt, "the same traffic timed on NVLink and on the network"}},
    .facts = {.rows = {rows::tp, rows::weights, rows::tp_sent, rows::comm_seconds},
              .formulas = {formulas::memory}},
}};

}  // namespace

}  // namespace story
