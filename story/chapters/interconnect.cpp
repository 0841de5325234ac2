// `interconnect`: why the bandwidth hierarchy decides the layout. Two nodes of GPUs joined by
// NVLink inside (drawn thick) and the network between them (thin), both to scale, with chunks
// moving at speeds proportional to bandwidth; then each strategy's traffic per step timed on
// either link (engine::link_timings), and the link this layout actually puts it on.
#include "engine/interconnect.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "story/chapter/chapter_base.hpp"
#include "story/draw/draw.hpp"
#include "story/text/format.hpp"
#include "story/vocab/cluster_vocab.hpp"

namespace story {

namespace {

constexpr double kDefaultDuration = 24;
// Choreography, in seconds of the default duration.
constexpr double kNodesAt = 0.3, kNvlinkAt = 1.2, kNetworkAt = 2.8, kScaleAt[2] = {4.6, 5.8};
constexpr double kTableAt = 8.0, kRowAt[3] = {8.0, 10.5, 13.0}, kVerdictAt = 16.0;  // dp, tp, pp
// Offsets from those, in seconds (not scaled): node frames, then their tiles, one after another;
// links draw in over kLinkFor and their chunks start once drawn; a row's bars follow its text.
constexpr double kNodeStep = 0.1, kTilesAfter = 0.2, kTileStep = 0.06, kLinkFor = 0.6;
constexpr double kBarsAfter = 0.3, kBarsFor = 0.8;

// Nodes: two frames side by side, a row of tiles kTileDrop below each frame's top (at most
// kTileW wide, centred in kTileRowW), the NVLink bar kBusDrop below the tiles, named kBusNameDrop
// under it; the network between the nodes named kNetworkLift above it.
constexpr Box kNodes{frame::kLeft, 252, frame::kRight - frame::kLeft, 226};
constexpr double kNodeGap = 180, kTileDrop = 56, kTileRowW = 724, kTileH = 64, kTileW = 84;
constexpr double kTileGap = 8, kNamedTileW = 70, kBusDrop = 54, kNetworkLift = 26,
                 kBusNameDrop = 36;
constexpr int kMaxTiles = 16;
// Under the nodes, one text column: the two links drawn to scale, kScaleGap apart, then the
// table's header kSectionGap below, its rule kRuleGap under the header and the rows under that.
constexpr double kScaleTop = 523, kScaleGap = 14, kSectionGap = 22, kRuleGap = 6;
// Bandwidth to scale: bar length and thickness both proportional to one direction's bandwidth,
// each bar centred kBarLift above its label's baseline, its value kValueGap past its end.
constexpr double kScaleBarX = 300, kScaleBarMax = 760;
constexpr double kBarLift = 9, kValueGap = 18, kBarRadius = 4;
// Table of traffic per step, one row per strategy rising kRowRise px into place: its name over
// its detail centred in the row, the numbers on the name's line, and the time bar kTimeBarDrop
// under each time (kCellW wide at most).
constexpr double kRowH = 82, kRowRise = 12, kTimeBarDrop = 14, kTimeBarH = 10;
constexpr double kBytesRight = 1010, kCellX[2] = {1060, 1460}, kCellW = 330;
// The verdict frame: around a time cell, kVerdictPad px wider than it on either side and
// kVerdictInset px inside its row at the top and bottom.
constexpr double kVerdictPad = 16, kVerdictInset = 2, kVerdictRadius = 10;
// Chunks: px per second for the fastest link's one-direction bandwidth; they fade over kEdge px
// at either end of a link.
constexpr double kFastestSpeed = 520, kChunkSpacing = 130, kChunkSize = 14, kEdge = 30;

const TextStyle kRowName = sized(weighted(style_of(Role::body), Weight::semibold), 30);
const TextStyle kNumber = sized(style_of(Role::value), 30);
const TextStyle kLinkName = weighted(style_of(Role::label), Weight::semibold);
const TextStyle kLinkValue = tabular(style_of(Role::note));
const TextStyle kHeader = style_of(Role::label);

enum Link { kNvlink = 0, kNetwork = 1 };
enum ColumnLine { kNvlinkLine = kNvlink, kNetworkLine = kNetwork, kHeaderLine };

struct Row {
    std::string name, detail;
    engine::LinkTiming timing;
};

double timing(const engine::LinkTiming& l, int link) {
    return link == kNvlink ? l.on_nvlink.value : l.on_network.value;
}

class InterconnectChapter final : public ChapterBase {
  public:
    InterconnectChapter(const ChapterSpec& spec, const Video& video, const TextMetrics& metrics)
        : ChapterBase(spec, video, metrics),
          column_(metrics_, frame::kLeft, kScaleTop),
          nodes_in_{at(kNodesAt), kNodeStep},
          tiles_in_{at(kNodesAt) + kTilesAfter, kTileStep},
          bus_in_(Fade::in(at(kNvlinkAt), kLinkFor)),
          network_in_(Fade::in(at(kNetworkAt), kLinkFor)),
          head_in_(Fade::in(at(kTableAt))),
          verdict_in_(Fade::in(at(kVerdictAt))) {
        for (const engine::Config& c : timeline_.states())
            timings_.push_back(engine::link_timings(c));
        for (const engine::LinkTimings& l : timings_)
            for (const engine::LinkTiming* r : {&l.dp, &l.tp, &l.pp})
                longest_ = std::max({longest_, r->on_nvlink.value, r->on_network.value});
        for (const engine::Config& c : timeline_.states())
            fastest_ = std::max({fastest_, bandwidth(c, kNvlink), bandwidth(c, kNetwork)});
        for (int link : {kNvlink, kNetwork})
            scale_in_[link] = Fade::in(at(kScaleAt[link]), kLinkFor);
        for (int i = 0; i < 3; ++i) {
            rows_in_.push_back(Fade::in(at(kRowAt[i])));
            bars_in_.push_back(Fade::in(at(kRowAt[i]) + kBarsAfter, kBarsFor));
        }
        infiniband_ = engine::infiniband_generation(timeline_.states()[0].cluster.network);
        for (const engine::Config& c : timeline_.states())
            if (engine::infiniband_generation(c.cluster.network) != infiniband_)
                infiniband_.clear();
        place_nodes();
        place_column();
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
    // --- geometry, built once ---------------------------------------------------------------
    void place_nodes() {
        const int k = std::clamp(timeline_.states()[0].cluster.gpus_per_node, 1, kMaxTiles);
        for (int n = 0; n < 2; ++n) {
            const Box node = row_cell(kNodes, 2, n, kNodeGap);
            const Box strip = below(top_of(node, kTileDrop), 0, kTileH);
            const Box tiles = align_in(strip, kTileRowW, kTileH, Align::center, VAlign::top);
            nodes_[n] = node;
            for (int i = 0; i < k; ++i)
                tiles_[n].push_back(row_cell(tiles, k, i, kTileGap, kTileW));
        }
        bus_y_ = tiles_[0][0].bottom() + kBusDrop;
    }
    // The scale's two lines, the table's header and its rule, then the table's rows.
    void place_column() {
        column_.line("NVLink", kLinkName, palette_.text)
            .gap(kScaleGap)
            .line(network_name(), kLinkName, palette_.text)
            .gap(kSectionGap)
            .line(tr("Traffic per GPU per step"), kHeader, palette_.muted);
        rule_y_ = column_.bottom() + kRuleGap;
        const Box table{frame::kLeft, rule_y_ + kRuleGap, frame::kRight - frame::kLeft, 3 * kRowH};
        for (int i = 0; i < 3; ++i) row_boxes_.push_back(column_cell(table, 3, i, 0));
    }
    const engine::Config& config(double t) const { return timeline_.state_at(t); }
    // "InfiniBand NDR" when every state's network is one InfiniBand port a GPU of one
    // generation (engine::infiniband_generation), else the generic name.
    std::string network_name() const {
        return infiniband_.empty() ? tr("Network") : "InfiniBand " + infiniband_;
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

    // The NVLink bar of a node runs between its first and last tiles' centres.
    Point bus_left(int n) const { return {tiles_[n].front().cx(), bus_y_}; }
    Point bus_right(int n) const { return {tiles_[n].back().cx(), bus_y_}; }

    // --- drawing --------------------------------------------------------------------------
    void add_node(Scene& s, double t, int n) const {
        const int nodes = config(t).cluster.nodes;
        const std::string label = n == 1 && nodes > 2
                                      ? tr("Node {n} (of {nodes})", {{"n", n}, {"nodes", nodes}})
                                      : tr("Node {n}", {{"n", n}});
        add_items(s, node_frame(palette_, nodes_[n], label), nodes_in_.at(t, n));
        const double width = link_width(bandwidth_at(t, kNvlink), fastest_);
        const double bus = bus_in_.at(t);
        const int k = static_cast<int>(tiles_[n].size());
        for (int i = 0; i < k; ++i) {
            const Box& b = tiles_[n][i];
            const int rank = n * k + i;
            const std::string name =
                b.w >= kNamedTileW ? tr("GPU {n}", {{"n", rank}}) : format_count(rank, locale_);
            add_items(s, gpu_tile(palette_, metrics_, {b, name, style_of(Role::small).size}),
                      tiles_in_.at(t, i));
            s.add(Line{{b.cx(), b.bottom()}, {b.cx(), bus_y_}, palette_.muted, 4}, bus);
        }
        const Point a = bus_left(n), b = bus_right(n);
        if (bus > 0) s.add(Line{a, {lerp(a.x, b.x, bus), bus_y_}, palette_.muted, width});
        s.add(Text{nodes_[n].cx(), bus_y_ + kBusNameDrop, "NVLink",
                   weighted(style_of(Role::small), Weight::medium), palette_.muted, Align::center},
              bus);
        add_flow(s, t, at(kNvlinkAt) + kLinkFor, kNvlink, a, b);
    }

    void add_network(Scene& s, double t) const {
        const double u = network_in_.at(t);
        if (u <= 0) return;
        const Point a = bus_right(0), b = bus_left(1);
        s.add(Line{a,
                   {lerp(a.x, b.x, u), bus_y_},
                   palette_.muted,
                   link_width(bandwidth_at(t, kNetwork), fastest_)});
        const std::string name = infiniband_.empty() ? tr("network") : "InfiniBand";
        s.add(Text{(nodes_[0].right() + nodes_[1].x) / 2, bus_y_ - kNetworkLift, name,
                   weighted(style_of(Role::small), Weight::medium), palette_.muted, Align::center},
              u);
        add_flow(s, t, at(kNetworkAt) + kLinkFor, kNetwork, a, b);
    }

    // Chunks moving along a link at constant speed, proportional to its bandwidth.
    void add_flow(Scene& s, double t, double start, int link, Point a, Point b) const {
        const double length = b.x - a.x;
        for (double d : chunk_offsets(travelled(t, start, link), length, kChunkSpacing)) {
            const double edge = std::min({d / kEdge, (length - d) / kEdge, 1.0});
            s.items.push_back(chunk(palette_, {a.x + d, a.y}, kChunkSize, edge));
        }
    }

    void add_scale(Scene& s, double t) const {
        for (int link : {kNvlink, kNetwork}) {
            const double u = scale_in_[link].at(t);
            if (u <= 0) continue;
            const double bw = bandwidth_at(t, link), y = column_.baseline(link);
            const double len = kScaleBarMax * bw / fastest_ * u, h = link_width(bw, fastest_);
            s.add(column_.lines()[link], u);
            const Box bar{kScaleBarX, y - kBarLift - h / 2, len, h};
            s.add(filled(bar, std::min(kBarRadius, h / 2), palette_.muted), u);
            s.add(Text{bar.right() + kValueGap, y, scale_label(t, link), kLinkValue, palette_.text},
                  u);
        }
    }

    std::string scale_label(double t, int link) const {
        const double one_way = bandwidth(config(t), link);
        const std::string each_way = format_bandwidth(one_way, locale_);
        if (link == kNetwork) return tr("{bandwidth} each way", {{"bandwidth", each_way}});
        return tr("{total} ({bandwidth} each way)",
                  {{"total", format_bandwidth(2 * one_way, locale_)}, {"bandwidth", each_way}});
    }

    std::array<Row, 3> rows(double t) const {
        const engine::Config& c = config(t);
        const engine::LinkTimings& l = timings_[timeline_.morph_at(t).shown()];
        const std::string dp =
            c.layout.dp() == 1
                ? tr("one replica: no gradients to average")
                : tr("gradient all-reduce over {n} replicas, once a step", {{"n", c.layout.dp()}});
        return {
            {{tr("Data parallel"), dp, l.dp},
             {tr("Tensor parallel"),
              tr("activation all-reduces over {n} GPUs, 4 per layer", {{"n", c.layout.tp}}), l.tp},
             {tr("Pipeline parallel"),
              tr("activations between {n} stages, each micro-batch", {{"n", c.layout.pp}}), l.pp}}};
    }

    static const engine::LinkTiming& pick(const engine::LinkTimings& l, int row) {
        return row == 0 ? l.dp : row == 1 ? l.tp : l.pp;
    }

    void add_table(Scene& s, double t) const {
        const double head = head_in_.at(t);
        if (head <= 0) return;
        const Text& title = column_.lines()[kHeaderLine];
        const auto header = [&](double x, std::string text) {
            s.add(Text{x, title.y, std::move(text), kHeader, palette_.muted, Align::right}, head);
        };
        s.add(title, head);
        header(kBytesRight, tr("bytes"));
        header(kCellX[kNvlink] + kCellW, tr("time on NVLink"));
        header(kCellX[kNetwork] + kCellW, tr("time on the network"));
        s.add(Line{{frame::kLeft, rule_y_}, {frame::kRight, rule_y_}, palette_.grid, 2}, head);
        const auto r = rows(t);
        for (int i = 0; i < 3; ++i) add_row(s, t, i, r[i]);
    }

    void add_row(Scene& s, double t, int i, const Row& row) const {
        const double u = rows_in_[i].at(t);
        if (u <= 0) return;
        Box box = row_boxes_[i];
        box.y += kRowRise * (1 - u);
        const Morph m = timeline_.morph_at(t);
        const engine::LinkTiming& a = pick(timings_[m.from], i);
        const engine::LinkTiming& b = pick(timings_[m.to], i);
        TextColumn text(metrics_, frame::kLeft, 0);
        text.line(row.name, kRowName, palette_.text)
            .line(row.detail, Role::small, palette_.muted)
            .centre_on(box.cy());
        text.add_to(s, u);
        const double y = text.baseline();
        const engine::LinkTiming& shown = shown_of(m, a, b);
        const double bytes = shown.bytes.value;
        s.add(Text{kBytesRight, y, bytes > 0 ? format_bytes(bytes, locale_) : "—", kNumber,
                   palette_.text, Align::right},
              u);
        for (int link : {kNvlink, kNetwork}) {
            const double seconds = timing(shown, link);
            s.add(Text{kCellX[link] + kCellW, y, bytes > 0 ? format_time(seconds, locale_) : "—",
                       kNumber, palette_.text, Align::right},
                  u);
            const double w = kCellW * seconds / longest_ * bars_in_[i].at(t);
            if (w > 0.5)
                s.add(filled({kCellX[link], y + kTimeBarDrop, w, kTimeBarH}, 3, palette_.comm), u);
        }
        add_verdict(s, t, box, a, b, m.u);
    }

    // A highlight frame around the time on the link this layout puts the group on; it slides
    // when a `set:` moves the group to the other link.
    void add_verdict(Scene& s, double t, const Box& row, const engine::LinkTiming& a,
                     const engine::LinkTiming& b, double u) const {
        const double v = verdict_in_.at(t);
        if (v <= 0) return;
        const auto cell = [&row](const engine::LinkTiming& l) {
            return Box{kCellX[l.crosses_nodes ? kNetwork : kNvlink], row.y, kCellW, row.h};
        };
        const auto shown = [](const engine::LinkTiming& l) {
            return l.bytes.value > 0 ? 1.0 : 0.0;
        };
        const double alpha = v * lerp(shown(a), shown(b), u);
        if (alpha <= 0) return;
        s.add(outline(inset(lerp(cell(a), cell(b), u), -kVerdictPad, kVerdictInset), kVerdictRadius,
                      palette_.highlight, 3),
              alpha);
    }

    std::vector<engine::LinkTimings> timings_;
    double longest_ = 1e-12, fastest_ = 1;
    std::string infiniband_;  // the network's InfiniBand generation, or "" (network_name)
    Box nodes_[2];
    std::vector<Box> tiles_[2];
    double bus_y_ = 0;
    // The scale's lines and the table's header (ColumnLine), the header's rule, the table's rows.
    TextColumn column_;
    double rule_y_ = 0;
    std::vector<Box> row_boxes_;
    const Stagger nodes_in_, tiles_in_;
    const Fade bus_in_, network_in_, head_in_, verdict_in_;
    Fade scale_in_[2] = {Fade::shown(), Fade::shown()};
    std::vector<Fade> rows_in_, bars_in_;
};

const KindRegistrar registrar{{
    .name = "interconnect",
    .default_duration = kDefaultDuration,
    .settable = {"nvlink", "network", "gpus_per_node", "nodes", "tp", "pp", "gpus", "model"},
    .make = make_of<InterconnectChapter>,
    .shows = "two nodes, NVLink and the network (InfiniBand and its generation where the "
             "bandwidth is one port a GPU) drawn to scale and named; each strategy's traffic per "
             "step timed on each link; the link each group uses in this layout",
    .goldens = {{"chapter_interconnect", 17.5,
                 "traffic on both links, the link each group uses framed"}},
    .phases = {{"nodes", kNodesAt, "the nodes and their GPUs"},
               {"nvlink", kNvlinkAt, "NVLink inside each node, traffic on it"},
               {"network", kNetworkAt, "the network between the nodes, traffic on it"},
               {"scale", kScaleAt[0], "both links' bandwidth drawn to scale"},
               {"dp", kRowAt[0], "the table's data-parallel row: what it sends, on which link"},
               {"tp", kRowAt[1], "the tensor-parallel row"},
               {"pp", kRowAt[2], "the pipeline row"},
               {"verdict", kVerdictAt, "the link each group uses here, framed"}},
    .facts = {.rows = {with_label(rows::dp_sent, N_("Data parallel, sent per GPU")),
                       with_label(rows::tp_sent, N_("Tensor parallel, sent per GPU")),
                       with_label(rows::pp_sent, N_("Pipeline, sent per GPU")), rows::comm_seconds},
              .formulas = {formulas::ring}},
}};

}  // namespace

}  // namespace story
