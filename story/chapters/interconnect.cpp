// `interconnect`: why the bandwidth hierarchy decides the layout. Two nodes of GPUs joined by
// NVLink inside (drawn thick) and the network between them (thin), both to scale, with chunks
// moving at speeds proportional to bandwidth; then each strategy's traffic per step timed on
// either link (engine::link_timings), and the link this layout actually puts it on.
#include "engine/interconnect.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "story/chapter_base.hpp"
#include "story/cluster_vocab.hpp"
#include "story/format.hpp"

namespace story {

namespace {

constexpr double kDefaultDuration = 24;
// Choreography, in seconds of the default duration.
constexpr double kNodesAt = 0.3, kNvlinkAt = 1.2, kNetworkAt = 2.8, kScaleAt[2] = {4.6, 5.8};
constexpr double kTableAt = 8.0, kRowAt[3] = {8.0, 10.5, 13.0}, kVerdictAt = 16.0;

// Nodes: two frames side by side, a row of tiles, the NVLink bar beneath them.
constexpr double kNodeTop = 252, kNodeH = 226, kNodeW = 774, kNodeGap = 1920 - 2 * 96 - 2 * 774;
constexpr double kTileTop = kNodeTop + 56, kTileH = 64, kTileGap = 8, kTileRowW = 724, kBusY = 426;
// Bandwidth to scale: bar length and thickness both proportional to one direction's bandwidth.
constexpr double kScaleBarX = 300, kScaleBarMax = 760, kScaleY[2] = {548, 598};
// Table of traffic per step.
constexpr double kHeaderY = 658, kRowTop = 676, kRowH = 76;
constexpr double kBytesRight = 1010, kCellX[2] = {1060, 1460}, kCellW = 330;
// Chunks: px per second for the fastest link's one-direction bandwidth.
constexpr double kFastestSpeed = 520, kChunkSpacing = 130;

enum Link { kNvlink = 0, kNetwork = 1 };

struct Row {
    std::string name, detail;
    engine::LinkTiming timing;
};

double lerp_timing(const engine::LinkTiming& a, const engine::LinkTiming& b, double u, int link) {
    return link == kNvlink ? lerp(a.on_nvlink.value, b.on_nvlink.value, u)
                           : lerp(a.on_network.value, b.on_network.value, u);
}

class InterconnectChapter final : public ChapterBase {
  public:
    InterconnectChapter(const ChapterSpec& spec, const Video& video, const TextMetrics& metrics)
        : ChapterBase(spec, video, metrics) {
        for (const engine::Config& c : timeline_.states())
            timings_.push_back(engine::link_timings(c));
        for (const engine::LinkTimings& l : timings_)
            for (const engine::LinkTiming* r : {&l.dp, &l.tp, &l.pp})
                longest_ = std::max({longest_, r->on_nvlink.value, r->on_network.value});
        for (const engine::Config& c : timeline_.states())
            fastest_ = std::max({fastest_, bandwidth(c, kNvlink), bandwidth(c, kNetwork)});
    }

    Scene scene_at(double t) const override {
        Scene s = blank();
        for (int n = 0; n < 2; ++n) add_node(s, t, n);
        add_network(s, t);
        add_scale(s, t);
        add_table(s, t);
        add_frame(s, t);
        return s;
    }

  private:
    double at(double authored) const {
        return scaled_time(authored, spec_.duration, kDefaultDuration);
    }
    const engine::Config& config(double t) const {
        return timeline_.states()[timeline_.morph_at(t).to];
    }

    static double bandwidth(const engine::Config& c, int link) {
        return link == kNvlink ? engine::nvlink_per_direction(c.cluster).value
                               : c.cluster.network.value;
    }
    double bandwidth_at(double t, int link) const {
        const Morph m = timeline_.morph_at(t);
        return lerp(bandwidth(timeline_.states()[m.from], link),
                    bandwidth(timeline_.states()[m.to], link), m.u);
    }
    // Distance a flow has moved since `start`: speed follows bandwidth, even while it morphs,
    // so chunks never jump. Recomputed from the start each frame: nothing accumulates.
    double travelled(double t, double start, int link) const {
        constexpr double kStep = 1.0 / 60;
        double d = 0;
        for (double a = start; a < t; a += kStep) {
            const double b = std::min(t, a + kStep);
            d += (b - a) * kFastestSpeed * bandwidth_at((a + b) / 2, link) / fastest_;
        }
        return d;
    }

    int tiles() const { return std::clamp(config(0).cluster.gpus_per_node, 1, 16); }
    Area node_box(int n) const { return {96 + n * (kNodeW + kNodeGap), kNodeTop, kNodeW, kNodeH}; }
    Area tile_box(int n, int i) const {
        const int k = tiles();
        const double w = std::min(84.0, (kTileRowW - kTileGap * (k - 1)) / k);
        const double left = node_box(n).x + (kNodeW - (w * k + kTileGap * (k - 1))) / 2;
        return {left + i * (w + kTileGap), kTileTop, w, kTileH};
    }
    double bus_left(int n) const { return tile_box(n, 0).cx(); }
    double bus_right(int n) const { return tile_box(n, tiles() - 1).cx(); }

    void add_node(Scene& s, double t, int n) const {
        const int nodes = config(t).cluster.nodes;
        std::string label = "Node " + std::to_string(n);
        if (n == 1 && nodes > 2) label += " (of " + std::to_string(nodes) + ")";
        add_items(s, node_frame(palette_, node_box(n), label),
                  progress(t, at(kNodesAt) + 0.1 * n, 0.5));
        const double width = link_width(bandwidth_at(t, kNvlink), fastest_);
        const double bus = progress(t, at(kNvlinkAt), 0.6);
        for (int i = 0; i < tiles(); ++i) {
            const Area b = tile_box(n, i);
            const std::string name = (b.w >= 70 ? "GPU " : "") + std::to_string(n * tiles() + i);
            add_items(s, gpu_tile(palette_, metrics_, {b, name, 22}),
                      progress(t, at(kNodesAt) + 0.2 + 0.06 * i, 0.5));
            s.add(Line{{b.cx(), b.bottom()}, {b.cx(), kBusY}, palette_.muted, 4}, bus);
        }
        const double right = lerp(bus_left(n), bus_right(n), bus);
        if (bus > 0) s.add(Line{{bus_left(n), kBusY}, {right, kBusY}, palette_.muted, width});
        add_flow(s, t, at(kNvlinkAt) + 0.6, kNvlink, {bus_left(n), kBusY}, {bus_right(n), kBusY});
    }

    void add_network(Scene& s, double t) const {
        const double u = progress(t, at(kNetworkAt), 0.6);
        if (u <= 0) return;
        const Point a{bus_right(0), kBusY}, b{bus_left(1), kBusY};
        s.add(Line{a,
                   {lerp(a.x, b.x, u), kBusY},
                   palette_.muted,
                   link_width(bandwidth_at(t, kNetwork), fastest_)});
        const TextStyle label{22, Weight::medium, false};
        s.add(Text{(node_box(0).right() + node_box(1).x) / 2, kBusY - 26, "network", label,
                   palette_.muted, Align::center},
              u);
        add_flow(s, t, at(kNetworkAt) + 0.6, kNetwork, a, b);
    }

    // Chunks moving along a link at constant speed, proportional to its bandwidth.
    void add_flow(Scene& s, double t, double start, int link, Point a, Point b) const {
        const double length = b.x - a.x;
        for (double d : chunk_offsets(travelled(t, start, link), length, kChunkSpacing)) {
            const double edge = std::min({d / 30, (length - d) / 30, 1.0});  // fade at the ends
            s.items.push_back(chunk(palette_, {a.x + d, a.y}, 14, edge));
        }
    }

    void add_scale(Scene& s, double t) const {
        const TextStyle name{frame::kLabelSize, Weight::semibold, false};
        const TextStyle value{frame::kLabelSize, Weight::regular, true};
        for (int link : {kNvlink, kNetwork}) {
            const double u = progress(t, at(kScaleAt[link]), 0.6);
            if (u <= 0) continue;
            const double bw = bandwidth_at(t, link), y = kScaleY[link];
            const double len = kScaleBarMax * bw / fastest_ * u, h = link_width(bw, fastest_);
            s.add(
                Text{frame::kLeft, y, link == kNvlink ? "NVLink" : "Network", name, palette_.text},
                u);
            s.add(Rect{kScaleBarX, y - 9 - h / 2, len, h, std::min(4.0, h / 2), palette_.muted}, u);
            s.add(Text{kScaleBarX + len + 18, y, scale_label(t, link), value, palette_.text}, u);
        }
    }

    std::string scale_label(double t, int link) const {
        const double one_way = bandwidth_at(t, link);
        if (link == kNetwork) return format_bandwidth(one_way) + " each way";
        return format_bandwidth(2 * one_way) + " (" + format_bandwidth(one_way) + " each way)";
    }

    std::array<Row, 3> rows(double t) const {
        const engine::Config& c = config(t);
        const engine::LinkTimings& l = timings_[timeline_.morph_at(t).to];
        const std::string dp = c.layout.dp() == 1
                                   ? "one replica: no gradients to average"
                                   : "gradient all-reduce over " + std::to_string(c.layout.dp()) +
                                         " replicas, once a step";
        return {
            {{"Data parallel", dp, l.dp},
             {"Tensor parallel",
              "activation all-reduces over " + std::to_string(c.layout.tp) + " GPUs, 4 per layer",
              l.tp},
             {"Pipeline parallel",
              "activations between " + std::to_string(c.layout.pp) + " stages, each micro-batch",
              l.pp}}};
    }

    static const engine::LinkTiming& pick(const engine::LinkTimings& l, int row) {
        return row == 0 ? l.dp : row == 1 ? l.tp : l.pp;
    }

    void add_table(Scene& s, double t) const {
        const double head = progress(t, at(kTableAt), 0.5);
        if (head <= 0) return;
        const TextStyle label{frame::kLabelSize, Weight::medium, false};
        s.add(Text{frame::kLeft, kHeaderY, "Traffic per GPU per step", label, palette_.muted},
              head);
        s.add(Text{kBytesRight, kHeaderY, "bytes", label, palette_.muted, Align::right}, head);
        s.add(Text{kCellX[0] + kCellW, kHeaderY, "time on NVLink", label, palette_.muted,
                   Align::right},
              head);
        s.add(Text{kCellX[1] + kCellW, kHeaderY, "time on the network", label, palette_.muted,
                   Align::right},
              head);
        s.add(Line{{frame::kLeft, kHeaderY + 12}, {frame::kRight, kHeaderY + 12}, palette_.grid, 2},
              head);
        const auto r = rows(t);
        for (int i = 0; i < 3; ++i) add_row(s, t, i, r[i]);
    }

    void add_row(Scene& s, double t, int i, const Row& row) const {
        const double u = progress(t, at(kRowAt[i]), 0.5);
        if (u <= 0) return;
        const double y = kRowTop + i * kRowH + 12 * (1 - u);
        const Morph m = timeline_.morph_at(t);
        const engine::LinkTiming& a = pick(timings_[m.from], i);
        const engine::LinkTiming& b = pick(timings_[m.to], i);
        const TextStyle name{30, Weight::semibold, false}, detail{22, Weight::regular, false};
        const TextStyle number{30, Weight::semibold, true};
        s.add(Text{frame::kLeft, y + 30, row.name, name, palette_.text}, u);
        s.add(Text{frame::kLeft, y + 58, row.detail, detail, palette_.muted}, u);
        const double bytes = lerp(a.bytes.value, b.bytes.value, m.u);
        s.add(Text{kBytesRight, y + 30, bytes > 0 ? format_bytes(bytes) : "—", number,
                   palette_.text, Align::right},
              u);
        for (int link : {kNvlink, kNetwork}) {
            const double seconds = lerp_timing(a, b, m.u, link);
            s.add(Text{kCellX[link] + kCellW, y + 30, bytes > 0 ? format_time(seconds) : "—",
                       number, palette_.text, Align::right},
                  u);
            const double w = kCellW * seconds / longest_ * progress(t, at(kRowAt[i]) + 0.3, 0.8);
            if (w > 0.5) s.add(Rect{kCellX[link], y + 44, w, 10, 3, palette_.comm}, u);
        }
        add_verdict(s, t, y, a, b, m.u);
    }

    // A highlight frame around the time on the link this layout puts the group on; it slides
    // when a `set:` moves the group to the other link.
    void add_verdict(Scene& s, double t, double y, const engine::LinkTiming& a,
                     const engine::LinkTiming& b, double u) const {
        const double v = progress(t, at(kVerdictAt), 0.5);
        if (v <= 0) return;
        const auto cell_x = [](const engine::LinkTiming& l) {
            return kCellX[l.crosses_nodes ? kNetwork : kNvlink];
        };
        const auto shown = [](const engine::LinkTiming& l) {
            return l.bytes.value > 0 ? 1.0 : 0.0;
        };
        const double alpha = v * lerp(shown(a), shown(b), u);
        if (alpha <= 0) return;
        s.add(Rect{lerp(cell_x(a), cell_x(b), u) - 16, y - 2, kCellW + 32, kRowH - 6, 10,
                   std::nullopt, palette_.highlight, 3},
              alpha);
    }

    std::vector<engine::LinkTimings> timings_;
    double longest_ = 1e-12, fastest_ = 1;
};

std::unique_ptr<Chapter> make(const ChapterSpec& spec, const Video& video,
                              const TextMetrics& metrics) {
    return std::make_unique<InterconnectChapter>(spec, video, metrics);
}

const KindRegistrar registrar{
    {"interconnect",
     kDefaultDuration,
     {"nvlink", "network", "gpus_per_node", "nodes", "tp", "pp", "gpus", "model"},
     make}};

}  // namespace

}  // namespace story
