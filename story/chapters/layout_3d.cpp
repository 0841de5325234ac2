// `layout_3d`: a rack of nodes, every card placed by engine::layout_3d (tp fastest, then pp,
// then dp). Tensor-parallel groups, pipeline stages and data-parallel replicas are outlined in
// turn, a highlight frame stepping through the groups; a `set:` of tp/pp re-slices the rack.
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include "engine/layout3d.hpp"
#include "story/chapter_base.hpp"
#include "story/cluster_vocab.hpp"
#include "story/format.hpp"

namespace story {

namespace {

constexpr double kDefaultDuration = 24;

enum class Focus { none, tp, pp, dp };
struct Phase {
    double start;  // authored seconds
    Focus focus;
};
// Choreography, in seconds of the default duration: the rack, then each kind of group in turn,
// then (where a `set:` re-slices) tensor groups and replicas again.
constexpr Phase kPhases[] = {{0, Focus::none},  {4.0, Focus::tp},  {9.0, Focus::pp},
                             {13.5, Focus::dp}, {18.0, Focus::tp}, {21.5, Focus::dp}};
constexpr double kRackAt = 0.3, kLinksAt = 2.0, kDwell = 1.2, kSlide = 0.4, kFade = 0.4;

// Rack geometry: a label column, then one row of cards per node. A roomy rack (one or two
// nodes) gives each row a framed band for group labels above the cards; a dense rack has no
// room for them, so its rows are bare strips of cards (compact ones, the GPU number and the tag
// in focus, when rows are thin), the cards' tags name the groups, and the node labels and the
// network sit in the label column.
struct Rack {
    double top, bottom;  // of the rows
    double gap;          // between rows
    double band;         // above the cards: node name, group labels
    double bus;          // below the cards: the NVLink bar
    double inflate;      // group outlines around their cards
    double halo;         // the highlight around an outline
    double arc;          // depth of a pipeline hand-over arc below its stages
    bool dense;
};
constexpr Rack kRoomy{262, 892, 26, 48, 38, 7, 4, 22, false};
constexpr double kCardsLeft = 256, kCardGap = 14, kNetworkX = 124;
// A roomy rack's network line runs down the label column under the node names, so past two
// nodes it would cross a middle node's name (and its rows thin out): bigger racks are dense.
constexpr int kMaxRoomyRows = 2;
// A dense rack starts higher (no band needed above its first row), its network spine at the left
// of the label column with the node labels beside it.
constexpr double kDenseTop = 226, kSpineX = frame::kLeft + 10, kNodeLabelX = frame::kLeft + 30;
// At most this many rows; a larger rack shows its first nodes and a "… N more nodes" row, so
// rows never get too thin for a 22 px label.
constexpr int kMaxRows = 16;
constexpr double kCompactText = 22, kCompactPad = 12;

Rack rack_for(int rows) {
    if (rows <= kMaxRoomyRows) return kRoomy;
    // Gaps and the bus scale with the row pitch, so 16 rows still leave ~30 px cards.
    const double pitch = (frame::kPictureBottom - kDenseTop) / rows;
    const double bus = std::min(16.0, 0.18 * pitch);
    return {kDenseTop,
            frame::kPictureBottom,
            std::min(12.0, 0.12 * pitch),
            0,
            bus,
            4,
            3,
            std::max(6.0, bus - 4),
            true};
}

struct Label {
    Area anchor;  // the outline the label sits above
    std::string text;
};
// One group of the kind in focus: the outlines drawn, their labels, and the frame the
// highlight takes when the group is in focus (pieces split at node boundaries).
struct Group {
    std::vector<Area> outlines, focus;
    std::vector<Label> labels;
};

class Layout3dChapter final : public ChapterBase {
  public:
    Layout3dChapter(const ChapterSpec& spec, const Video& video, const TextMetrics& metrics)
        : ChapterBase(spec, video, metrics) {
        for (const engine::Config& c : timeline_.states()) {
            layouts_.push_back(engine::layout_3d(c.layout, c.cluster.gpus_per_node));
            gpus_ = std::max(gpus_, c.layout.gpus);
        }
        per_node_ = std::max(1, timeline_.states()[0].cluster.gpus_per_node);
        nodes_ = (gpus_ + per_node_ - 1) / per_node_;
        rows_ = std::min(nodes_, kMaxRows);
        shown_nodes_ = nodes_ > kMaxRows ? kMaxRows - 1 : nodes_;
        shown_gpus_ = std::min(gpus_, shown_nodes_ * per_node_);
        rack_ = rack_for(rows_);
        numbers_fit_ = number_fits_beside_tags();
    }

    Scene scene_at(double t) const override {
        Scene s = blank();
        add_rack(s, t);
        add_cards(s, t);
        add_groups(s, t);
        add_frame(s, t);
        return s;
    }

  private:
    double at(double authored) const {
        return scaled_time(authored, spec_.duration, kDefaultDuration);
    }

    // --- geometry -------------------------------------------------------------------------
    double row_h() const { return (rack_.bottom - rack_.top - rack_.gap * (rows_ - 1)) / rows_; }
    Area row_box(int node) const {
        return {frame::kLeft, rack_.top + node * (row_h() + rack_.gap),
                frame::kRight - frame::kLeft, row_h()};
    }
    double card_w() const {
        return (frame::kRight - 16 - kCardsLeft - kCardGap * (per_node_ - 1)) / per_node_;
    }
    Area card_box(int rank) const {
        const Area row = row_box(rank / per_node_);
        return {kCardsLeft + (rank % per_node_) * (card_w() + kCardGap), row.y + rack_.band,
                card_w(), row.h - rack_.band - rack_.bus};
    }
    double bus_y(int node) const { return row_box(node).bottom() - rack_.bus / 2; }
    // The network line: in a roomy rack it leaves each node below its label; a dense rack's
    // spine joins the rows at their middles.
    double network_x() const { return rack_.dense ? kSpineX : kNetworkX; }
    double network_top(int node) const {
        return rack_.dense ? row_box(node).cy() : row_box(node).y + 56;
    }
    double network_bottom(int node) const {
        return rack_.dense ? row_box(node).cy() : row_box(node).y;
    }
    int node_of(const Area& piece) const {
        return std::clamp(static_cast<int>((piece.cy() - rack_.top) / (row_h() + rack_.gap)), 0,
                          rows_ - 1);
    }

    // Ranks [first, first + count) as one outline per node they touch, leaving out nodes not shown.
    std::vector<Area> pieces(int first, int count) const {
        std::vector<Area> out;
        for (int r = first; r < std::min(first + count, shown_gpus_);) {
            const int end = std::min(first + count, (r / per_node_ + 1) * per_node_);
            out.push_back(inflate(bounding({card_box(r), card_box(end - 1)}), rack_.inflate));
            r = end;
        }
        return out;
    }

    // Ranks per group of the kind in focus, and how many of those groups are (partly) shown:
    // the highlight steps only through groups on screen.
    static int group_size(const engine::Layout3D& l, Focus f) {
        return f == Focus::tp ? l.tp : l.tp * l.pp;
    }
    int shown_groups(const engine::Layout3D& l, Focus f) const {
        const int size = group_size(l, f);
        return std::min(l.gpus / size, (shown_gpus_ + size - 1) / size);
    }

    std::vector<Group> groups(const engine::Layout3D& l, Focus f) const {
        std::vector<Group> out;
        if (f == Focus::tp) {
            for (int g = 0; g < shown_groups(l, f); ++g) {
                const auto p = pieces(g * l.tp, l.tp);
                out.push_back({p, p, {{p.front(), "TP group " + std::to_string(g)}}});
            }
        } else if (f == Focus::pp || f == Focus::dp) {
            const int size = group_size(l, f);
            for (int d = 0; d < shown_groups(l, f); ++d) {
                Group g{{}, pieces(d * size, size), {}};
                if (f == Focus::dp) {
                    g.outlines = g.focus;
                    g.labels.push_back({g.focus.front(), "replica " + std::to_string(d)});
                }
                for (int s = 0; f == Focus::pp && s < l.pp && d * size + s * l.tp < shown_gpus_;
                     ++s) {
                    const Area stage = pieces(d * size + s * l.tp, l.tp).front();
                    g.outlines.push_back(stage);
                    g.labels.push_back({stage, "stage " + std::to_string(s)});
                }
                out.push_back(std::move(g));
            }
        }
        return out;
    }

    // Which phase shows at t, and how far into it.
    int phase_at(double t) const {
        int k = 0;
        while (k + 1 < static_cast<int>(std::size(kPhases)) && at(kPhases[k + 1].start) <= t) ++k;
        return k;
    }
    double phase_end(int k) const {
        return k + 1 < static_cast<int>(std::size(kPhases)) ? at(kPhases[k + 1].start)
                                                            : spec_.duration;
    }

    // --- drawing --------------------------------------------------------------------------
    void add_rack(Scene& s, double t) const {
        const double links = progress(t, at(kLinksAt), 0.6);
        for (int n = 0; n < shown_nodes_; ++n) {
            const double u = progress(t, at(kRackAt) + 0.1 * n, 0.5);
            add_node_label(s, n, u);
            // NVLink inside the node: thick; the network between nodes: thin, in the label column.
            const double left = card_box(n * per_node_).cx(),
                         right = card_box(n * per_node_ + per_node_ - 1).cx();
            const double nvlink = rack_.dense ? 0.6 * rack_.bus : kMaxLinkWidth * 0.7;
            if (links > 0)
                s.add(Line{{left, bus_y(n)},
                           {lerp(left, right, links), bus_y(n)},
                           palette_.muted,
                           nvlink});
            if (n + 1 < rows_ && links > 0)
                s.add(Line{{network_x(), network_top(n)},
                           {network_x(), lerp(network_top(n), network_bottom(n + 1), links)},
                           palette_.muted,
                           2});
        }
        if (shown_nodes_ < nodes_)
            add_more_nodes(s, progress(t, at(kRackAt) + 0.1 * shown_nodes_, 0.5));
        const TextStyle note{22, Weight::regular, false};
        // Roomy: beside the line under Node 0's name; dense: a header above the spine, clear of
        // every row.
        const Point at_note = rack_.dense ? Point{frame::kLeft, rack_.top - 14}
                                          : Point{kNetworkX + 12, row_box(0).bottom() - 40};
        if (nodes_ > 1) s.add(Text{at_note.x, at_note.y, "network", note, palette_.muted}, links);
    }

    // "Node 3": in a roomy rack a framed row with its name in the band; in a dense one a bare
    // name beside the spine, centred on the cards, with a tick joining it to the network.
    void add_node_label(Scene& s, int n, double u) const {
        const Area row = row_box(n);
        const std::string name = "Node " + std::to_string(n);
        if (!rack_.dense) {
            const TextStyle label{frame::kLabelSize, Weight::semibold, false};
            s.add(Rect{row.x, row.y, row.w, row.h, 16, std::nullopt, palette_.grid, 2}, u);
            s.add(Text{row.x + 18, row.y + 36, name, label, palette_.muted}, u);
            return;
        }
        const TextStyle label{24, Weight::semibold, false};
        s.add(Text{kNodeLabelX, centred_baseline(name, label, card_box(n * per_node_).cy()), name,
                   label, palette_.muted},
              u);
        s.add(Line{{kSpineX, row.cy()}, {kNodeLabelX - 8, row.cy()}, palette_.grid, 2}, u);
    }

    // The row after the last one shown: how many nodes the rack has beyond it.
    void add_more_nodes(Scene& s, double u) const {
        const TextStyle style{24, Weight::regular, false};
        const std::string text = "… " + std::to_string(nodes_ - shown_nodes_) + " more nodes";
        s.add(Text{kCardsLeft, centred_baseline(text, style, row_box(rows_ - 1).cy()), text, style,
                   palette_.muted},
              u);
    }

    // The baseline that centres a line of text vertically on y.
    double centred_baseline(const std::string& text, const TextStyle& style, double y) const {
        const TextExtent e = metrics_.measure(text, style);
        return y + (e.ascent - e.descent) / 2;
    }

    void add_cards(Scene& s, double t) const {
        const Morph m = timeline_.morph_at(t);
        const Focus f = kPhases[phase_at(t)].focus;
        const engine::PerGpu g = report_at(t).per_gpu;
        const double cap = g.capacity.value;
        const PerGpuBytes bytes{
            figure_at(t, [](const engine::Report& r) { return r.per_gpu.weights.value; }),
            figure_at(t, [](const engine::Report& r) { return r.per_gpu.gradients.value; }),
            figure_at(t, [](const engine::Report& r) { return r.per_gpu.optimizer.value; }),
            figure_at(t, [](const engine::Report& r) { return r.per_gpu.activations.value; })};
        // The stagger shortens for big racks, so every card is in before the first group shows.
        const double stagger = std::min(0.04, 2.4 / shown_gpus_);
        for (int r = 0; r < shown_gpus_; ++r) {
            double u = progress(t, at(kRackAt) + 0.3 + stagger * r, 0.5);
            const bool in_from = r < layouts_[m.from].gpus, in_to = r < layouts_[m.to].gpus;
            u *= lerp(in_from ? 1 : 0, in_to ? 1 : 0, m.u);
            if (u <= 0) continue;
            const Area b = card_box(r);
            add_items(s, gpu_tile(palette_, metrics_, tile_of(b, r, f)), u);
            add_tags(s, b, r, f, m, u, focused_ranks(t));
            if (b.h >= 110)
                add_items(s,
                          memory_gauge(palette_, {{b.x + 12, b.bottom() - 26, b.w - 24, 12},
                                                  cap,
                                                  memory_stack(palette_, bytes)}),
                          u);
        }
    }

    // A card too short for a name above its tags is compact: one line, the number at its left
    // and the tag in focus at its right.
    bool compact(const Area& card) const { return card.h < kShortTile; }

    // A card is named "GPU 3" at its top; a compact one just "3", its right kept for the tag in
    // focus (the number gives way to the tag where both do not fit).
    TileSpec tile_of(const Area& b, int rank, Focus f) const {
        if (!compact(b)) return {b, "GPU " + std::to_string(rank), 22};
        const bool number = numbers_fit_ || f == Focus::none;
        return {b, number ? std::to_string(rank) : "", kCompactText, std::nullopt, true};
    }

    // The three coordinates of a rank, as its tags read.
    static std::array<std::pair<Focus, std::string>, 3> tags_of(const engine::RankPlace& p) {
        return {{{Focus::tp, "TP rank " + std::to_string(p.tp)},
                 {Focus::pp, "stage " + std::to_string(p.pp)},
                 {Focus::dp, "replica " + std::to_string(p.dp)}}};
    }

    // Whether a compact card fits its number and the widest tag any state gives it, side by side.
    bool number_fits_beside_tags() const {
        const TextStyle number{kCompactText, Weight::medium, false},
            tag{kCompactText, Weight::semibold, false};
        double widest = 0;
        for (const engine::Layout3D& l : layouts_)
            for (int r = 0; r < std::min(l.gpus, shown_gpus_); ++r)
                for (const auto& [kind, text] : tags_of(l.ranks[r]))
                    widest = std::max(widest, metrics_.measure(text, tag).advance);
        const double digits = metrics_.measure(std::to_string(shown_gpus_ - 1), number).advance;
        return digits + widest + 3 * kCompactPad <= card_w();
    }

    // "TP rank 1", "stage 0", "replica 0": the coordinate in focus is highlighted; while tp/pp
    // morph, the old coordinates fade out as the new ones fade in. Tall cards list all three;
    // shorter ones only the one in focus, below the name or (compact) beside the number.
    void add_tags(Scene& s, const Area& b, int rank, Focus f, const Morph& m, double alpha,
                  const std::pair<int, int>& focused) const {
        const bool tall = b.h >= 170;
        for (int side = 0; side < 2; ++side) {
            const auto& l = layouts_[side == 0 ? m.from : m.to];
            if (rank >= l.gpus) continue;
            const double a = alpha * (m.from == m.to ? (side == 1 ? 1 : 0)
                                      : side == 0    ? std::max(0.0, 1 - 2 * m.u)
                                                     : std::max(0.0, 2 * m.u - 1));
            if (a <= 0) continue;
            double y = b.y + 66;
            for (const auto& [kind, text] : tags_of(l.ranks[rank])) {
                const bool lit = kind == f,
                           hot = lit && rank >= focused.first && rank < focused.second;
                if (!tall && !lit) continue;
                const Color color = hot ? palette_.highlight : lit ? palette_.text : palette_.muted;
                if (compact(b)) {
                    const TextStyle style{kCompactText, Weight::semibold, false};
                    s.add(Text{b.right() - kCompactPad, centred_baseline(text, style, b.cy()), text,
                               style, color, Align::right},
                          a);
                    continue;
                }
                const TextStyle style{24, lit ? Weight::semibold : Weight::regular, false};
                s.add(Text{b.x + 12, y, text, style, color}, a);
                y += 30;
            }
        }
    }

    // The group in focus at t (index into groups(), and how far the highlight has slid to it).
    std::pair<int, double> focus_at(double t, int count) const {
        const int k = phase_at(t);
        const double start = at(kPhases[k].start);
        const double steps = std::max(0.0, (t - start - kFade) / kDwell);
        const int cur = std::min(count - 1, static_cast<int>(steps));
        return {cur, cur == 0 ? 1 : progress(t, start + kFade + cur * kDwell, kSlide)};
    }

    // Ranks [first, second) of the group in focus (a TP group or a replica).
    std::pair<int, int> focused_ranks(double t) const {
        const Focus f = kPhases[phase_at(t)].focus;
        const engine::Layout3D& l = layouts_[timeline_.morph_at(t).to];
        if (f == Focus::none) return {0, 0};
        const int size = group_size(l, f);
        const int g = focus_at(t, shown_groups(l, f)).first;
        return {g * size, (g + 1) * size};
    }

    void add_groups(Scene& s, double t) const {
        const int k = phase_at(t);
        const Focus f = kPhases[k].focus;
        if (f == Focus::none) return;
        const double start = at(kPhases[k].start), end = phase_end(k);
        const double alpha =
            std::min(progress(t, start, kFade), 1 - progress(t, end - kFade, kFade));
        if (alpha <= 0) return;
        const Morph m = timeline_.morph_at(t);
        const auto from = groups(layouts_[m.from], f), to = groups(layouts_[m.to], f);
        add_outlines(s, from, to, m.u, alpha);
        // The highlight steps through the groups, one every kDwell seconds, sliding between them.
        const int n = static_cast<int>(to.size());
        if (n == 0) return;
        const auto [cur, slide] = focus_at(t, n);
        const int prev = std::max(0, cur - 1);
        const Group &a = to[prev], &b = to[cur];
        for (std::size_t i = 0; i < b.focus.size(); ++i) {
            const Area box = lerp_area(a.focus[std::min(i, a.focus.size() - 1)], b.focus[i], slide);
            const Area halo = inflate(box, rack_.halo);
            s.add(Rect{halo.x, halo.y, halo.w, halo.h, 16, std::nullopt, palette_.highlight, 4},
                  alpha);
        }
        if (f == Focus::pp) add_pipeline_arrows(s, b, alpha * slide);
        if (f == Focus::tp) add_tp_traffic(s, t, b, alpha * slide);
        if (f == Focus::dp) add_dp_traffic(s, t, alpha);
        add_labels(s, from, to, m.u, alpha, b);
    }

    // Outlines morph from the old slicing to the new: each old outline slides into the new one
    // holding its first card (the first to arrive stays, the rest fade), and new outlines that
    // nothing slides into fade in where they are.
    void add_outlines(Scene& s, const std::vector<Group>& from, const std::vector<Group>& to,
                      double u, double alpha) const {
        std::vector<Area> a, b;
        for (const Group& g : from) a.insert(a.end(), g.outlines.begin(), g.outlines.end());
        for (const Group& g : to) b.insert(b.end(), g.outlines.begin(), g.outlines.end());
        const auto outline = [&](const Area& box, double v) {
            s.add(Rect{box.x, box.y, box.w, box.h, 12, std::nullopt, palette_.text, 2}, v * 0.7);
        };
        if (u >= 1 || a.empty()) {
            for (const Area& box : b) outline(box, alpha);
            return;
        }
        std::vector<bool> reached(b.size(), false);
        for (const Area& pa : a) {
            const int j = containing(b, {pa.x + 20, pa.cy()});
            if (j < 0) {
                outline(pa, alpha * (1 - u));
                continue;
            }
            outline(lerp_area(pa, b[j], u), alpha * (reached[j] ? 1 - u : 1));
            reached[j] = true;
        }
        for (std::size_t j = 0; j < b.size(); ++j)
            if (!reached[j]) outline(b[j], alpha * u);
    }

    static int containing(const std::vector<Area>& boxes, Point p) {
        for (std::size_t j = 0; j < boxes.size(); ++j)
            if (p.x >= boxes[j].x && p.x <= boxes[j].right() && p.y >= boxes[j].y &&
                p.y <= boxes[j].bottom())
                return static_cast<int>(j);
        return -1;
    }

    void add_labels(Scene& s, const std::vector<Group>& from, const std::vector<Group>& to,
                    double u, double alpha, const Group& focused) const {
        // A dense rack has no band above its rows to hold them: the cards' tags name the groups.
        if (rack_.dense) return;
        const TextStyle style{22, Weight::semibold, false};
        const auto draw = [&](const std::vector<Group>& gs, double a) {
            if (a <= 0) return;
            for (const Group& g : gs)
                for (const Label& l : g.labels)
                    s.add(Text{l.anchor.x + 8, l.anchor.y - 9, l.text, style,
                               &g == &focused ? palette_.highlight : palette_.text},
                          a);
        };
        if (u >= 1) {
            draw(to, alpha);
            return;
        }
        draw(from, alpha * std::max(0.0, 1 - 2 * u));
        draw(to, alpha * std::max(0.0, 2 * u - 1));
    }

    // Activations handed from each stage to the next: arcs under the cards in the same node,
    // a straight drop when the next stage sits on the next node.
    void add_pipeline_arrows(Scene& s, const Group& g, double alpha) const {
        for (std::size_t i = 0; i + 1 < g.outlines.size(); ++i) {
            const Area& a = g.outlines[i];
            const Area& b = g.outlines[i + 1];
            if (std::abs(a.y - b.y) < 1) {
                std::vector<Point> arc;
                for (int k = 0; k <= 16; ++k) {
                    const double u = k / 16.0;
                    arc.push_back({lerp(a.cx(), b.cx(), u),
                                   a.bottom() + 2 + rack_.arc * std::sin(u * std::numbers::pi)});
                }
                s.add(Path{arc, false, std::nullopt, palette_.comm, 4}, alpha);
                s.add(Arrow{arc[14], arc[16], palette_.comm, 4, 14}, alpha);
            } else {
                s.add(Arrow{{a.cx(), a.bottom()}, {b.cx(), b.y}, palette_.comm, 4, 16}, alpha);
            }
        }
    }

    // The focused TP group's all-reduce: chunks shuttling along its stretch of the NVLink bar.
    void add_tp_traffic(Scene& s, double t, const Group& g, double alpha) const {
        for (const Area& piece : g.focus) {
            const int node = node_of(piece);
            const double left = std::max(piece.x + 30, card_box(node * per_node_).cx());
            const double length =
                std::min(piece.right() - 30, card_box(node * per_node_ + per_node_ - 1).cx()) -
                left;
            if (length <= 0) continue;
            for (double d : chunk_offsets(std::max(0.0, t) * 420, length, 90))
                s.items.push_back(chunk(palette_, {left + d, bus_y(node)}, chunk_size(), alpha));
        }
    }

    // Gradients all-reduced between replicas on the network: chunks down the rack's network line.
    void add_dp_traffic(Scene& s, double t, double alpha) const {
        if (nodes_ < 2) return;
        const double top = network_top(0), length = network_bottom(rows_ - 1) - top;
        for (double d : chunk_offsets(std::max(0.0, t) * 60, length, 70))
            s.items.push_back(chunk(palette_, {network_x(), top + d}, chunk_size(), alpha));
    }

    // Chunks no thicker than a dense rack's NVLink bus.
    double chunk_size() const { return rack_.dense ? std::min(14.0, rack_.bus) : 14; }

    std::vector<engine::Layout3D> layouts_;
    int gpus_ = 1, per_node_ = 8, nodes_ = 1;
    int rows_ = 1, shown_nodes_ = 1, shown_gpus_ = 1;  // rows drawn, nodes among them, their cards
    Rack rack_ = kRoomy;
    bool numbers_fit_ = true;  // a compact card shows its number beside its tag
};

std::unique_ptr<Chapter> make(const ChapterSpec& spec, const Video& video,
                              const TextMetrics& metrics) {
    return std::make_unique<Layout3dChapter>(spec, video, metrics);
}

const KindRegistrar registrar{
    {"layout_3d", kDefaultDuration, {"tp", "pp", "gpus", "gpus_per_node", "nodes", "model"}, make}};

}  // namespace

}  // namespace story
