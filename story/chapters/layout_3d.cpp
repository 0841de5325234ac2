// `layout_3d`: a rack of nodes, every card placed by engine::layout_3d (tp fastest, then cp,
// then pp, then dp). Tensor-parallel groups, context-parallel groups, pipeline stages, replicas
// and expert-parallel groups are outlined in turn, a highlight frame stepping through the groups;
// a `set:` of tp/pp re-slices the rack.
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numbers>

#include "engine/layout3d.hpp"
#include "story/chapter_base.hpp"
#include "story/cluster_vocab.hpp"
#include "story/draw/draw.hpp"
#include "story/format.hpp"
#include "story/rack_vocab.hpp"

namespace story {

namespace {

constexpr double kDefaultDuration = 24;

using Focus = RackFocus;
constexpr int kFocusKinds = 6;
struct Turn {
    double start;  // authored seconds
    Focus focus;
};
// Choreography, in seconds of the default duration: the rack, then each kind of group in turn,
// then (where a `set:` re-slices) tensor groups and replicas again.
constexpr Turn kTurns[] = {{0, Focus::none},  {4.0, Focus::tp},  {9.0, Focus::pp},
                           {13.5, Focus::dp}, {18.0, Focus::tp}, {21.5, Focus::dp}};
// A rack with context- or expert-parallel groups shows each axis once, in rank order, the turns
// sharing [kAxesFrom, kAxesTo) evenly; the last one stays to the end.
constexpr double kAxesFrom = 3.5, kAxesTo = 22.0;

std::vector<Turn> phases_for(bool cp, bool ep) {
    if (!cp && !ep) return {std::begin(kTurns), std::end(kTurns)};
    std::vector<Focus> axes{Focus::tp};
    if (cp) axes.push_back(Focus::cp);
    axes.insert(axes.end(), {Focus::pp, Focus::dp});
    if (ep) axes.push_back(Focus::ep);
    std::vector<Turn> out{{0, Focus::none}};
    const double turn = (kAxesTo - kAxesFrom) / static_cast<double>(axes.size());
    for (std::size_t i = 0; i < axes.size(); ++i) out.push_back({kAxesFrom + i * turn, axes[i]});
    return out;
}
constexpr double kRackAt = 0.3, kLinksAt = 2.0, kLinksFor = 0.6;
constexpr double kCardsAfterRack = 0.3;  // s, not scaled
constexpr double kNodeStagger = 0.1, kCardStagger = 0.04, kCardsWithin = 2.4;
// The highlight rests kDwell s on each group, sliding kSlide s to the next; groups fade kFade s.
constexpr double kDwell = 1.2, kSlide = 0.4, kFade = 0.4;
// Traffic: TP chunks shuttle fast along the NVLink bar, DP chunks slowly down the network.
constexpr double kTpSpeed = 420, kTpSpacing = 90, kTpInset = 30, kDpSpeed = 60, kDpSpacing = 70;
constexpr double kChunk = 14;

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
constexpr double kCardsLeft = 256, kCardsRightPad = 16, kCardGap = 14, kNetworkX = 124;
// A roomy rack's network line runs down the label column under the node names, so past two
// nodes it would cross a middle node's name (and its rows thin out): bigger racks are dense.
constexpr int kMaxRoomyRows = 2;
constexpr double kNetworkBelowName = 56;  // roomy: where the line leaves a node's band
// A dense rack starts higher (no band needed above its first row), its network spine at the left
// of the label column with the node labels beside it.
constexpr double kDenseTop = 226, kSpineX = frame::kLeft + 10, kNodeLabelX = frame::kLeft + 30;
// At most this many rows; a larger rack shows its first nodes and a "… N more nodes" row, so
// rows never get too thin for a 22 px label.
constexpr int kMaxRows = 16;
constexpr double kCompactPad = 12;
// Cards: tall ones list all three tags (kTagPitch apart from kTagTop), shorter ones the tag in
// focus; cards at least kGaugeCard tall show a memory gauge along their bottom.
constexpr double kTallCard = 170, kTagTop = 66, kTagPitch = 30, kGaugeCard = 110;
constexpr double kGaugeInset = 12, kGaugeDrop = 26, kGaugeH = 12;
constexpr double kLegendLift = 24, kDenseLegendLift = 14;  // the axes' legend above the rack

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

// Text styles: node names, the dense rack's smaller ones, tags, group labels, notes.
const TextStyle kNodeName = weighted(style_of(Role::label), Weight::semibold);
const TextStyle kDenseName = sized(kNodeName, 24);
const TextStyle kMoreNodes = sized(style_of(Role::note), 24);
const TextStyle kCompactNumber = style_of(Role::small);
const TextStyle kCompactTag = weighted(style_of(Role::small), Weight::semibold);
const TextStyle kGroupLabel = kCompactTag;

struct Label {
    Point at;  // baseline start, above the outline it names
    std::string text;
};
// A stretch of the NVLink bar chunks shuttle along.
struct Lane {
    Point start;
    double length = 0;
};
// One group of the kind in focus: the outlines drawn, their labels, the frame the highlight
// takes when the group is in focus (pieces split at node boundaries), and what it sends:
// pipeline hand-over arrows, or the NVLink lanes of a TP group's all-reduce.
struct Group {
    std::vector<int> members;  // the ranks shown, lowest first
    std::vector<Box> outlines, focus;
    std::vector<Label> labels;
    std::vector<Item> handovers;
    std::vector<Lane> lanes;
};
using GroupsByFocus = std::array<std::vector<Group>, kFocusKinds>;

class Layout3dChapter final : public ChapterBase {
  public:
    Layout3dChapter(const ChapterSpec& spec, const Video& video, const TextMetrics& metrics)
        : ChapterBase(spec, video, metrics),
          nodes_in_{at(kRackAt), kNodeStagger},
          links_in_(Fade::in(at(kLinksAt), kLinksFor)) {
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
        // The stagger shortens for big racks, so every card is in before the first group shows.
        cards_in_ =
            Stagger{at(kRackAt) + kCardsAfterRack, kCardStagger}.within(kCardsWithin, shown_gpus_);
        place_rack();
        numbers_fit_ = number_fits_beside_tags();
        bool cp = false, ep = false;
        for (const engine::Layout3D& l : layouts_) {
            cp = cp || l.cp > 1;
            ep = ep || l.ep > 1;
        }
        phases_ = phases_for(cp, ep);
        more_axes_ = cp || ep;
        for (std::size_t k = 0; k < phases_.size(); ++k) {
            const double start = at(phases_[k].start);
            const double end = k + 1 < phases_.size() ? at(phases_[k + 1].start) : spec_.duration;
            phase_starts_.push_back(start);
            phase_fades_.push_back(Fade::in(start, kFade).out(end - kFade, kFade));
        }
        for (const engine::Layout3D& l : layouts_) {
            GroupsByFocus& g = groups_.emplace_back();
            for (Focus f : {Focus::tp, Focus::cp, Focus::pp, Focus::dp, Focus::ep})
                g[static_cast<int>(f)] = groups(l, f);
        }
    }

    Scene scene_at(double t) const override {
        Scene s = blank();
        add_rack(s, t);
        add_cards(s, t);
        add_groups(s, t);
        add_axes_legend(s, t);
        add_frame(s, t);
        return s;
    }

  private:
    // --- geometry, built once ---------------------------------------------------------------
    void place_rack() {
        const Box rack{frame::kLeft, rack_.top, frame::kRight - frame::kLeft,
                       rack_.bottom - rack_.top};
        for (int n = 0; n < rows_; ++n) rows_box_.push_back(column_cell(rack, rows_, n, rack_.gap));
        // Every slot of the nodes shown, also those a last, partly filled node leaves empty.
        for (int r = 0; r < shown_nodes_ * per_node_; ++r) {
            const Box row = rows_box_[r / per_node_];
            const Box cards{kCardsLeft, row.y + rack_.band,
                            frame::kRight - kCardsRightPad - kCardsLeft,
                            row.h - rack_.band - rack_.bus};
            cards_.push_back(row_cell(cards, per_node_, r % per_node_, kCardGap));
        }
        nvlink_width_ = rack_.dense ? 0.6 * rack_.bus : kMaxLinkWidth * 0.7;
        chunk_size_ = rack_.dense ? std::min(kChunk, rack_.bus) : kChunk;
    }
    double bus_y(int node) const { return rows_box_[node].bottom() - rack_.bus / 2; }
    // The NVLink bar of a node runs between its first and last cards' centres.
    double bus_left(int node) const { return cards_[node * per_node_].cx(); }
    double bus_right(int node) const { return cards_[node * per_node_ + per_node_ - 1].cx(); }
    // The network line: in a roomy rack it leaves each node below its label; a dense rack's
    // spine joins the rows at their middles.
    double network_x() const { return rack_.dense ? kSpineX : kNetworkX; }
    double network_top(int node) const {
        return rack_.dense ? rows_box_[node].cy() : rows_box_[node].y + kNetworkBelowName;
    }
    double network_bottom(int node) const {
        return rack_.dense ? rows_box_[node].cy() : rows_box_[node].y;
    }
    int node_of(const Box& piece) const {
        const double pitch = rows_box_[0].h + rack_.gap;
        return std::clamp(static_cast<int>((piece.cy() - rack_.top) / pitch), 0, rows_ - 1);
    }

    // Ranks [first, first + count) as one outline per node they touch, leaving out nodes not shown.
    std::vector<Box> pieces(int first, int count) const {
        std::vector<Box> out;
        for (int r = first; r < std::min(first + count, shown_gpus_);) {
            const int end = std::min(first + count, (r / per_node_ + 1) * per_node_);
            out.push_back(inflate(bounding({cards_[r], cards_[end - 1]}), rack_.inflate));
            r = end;
        }
        return out;
    }

    // Ranks [first, first + count) of a sorted list of ranks as pieces, one per run of
    // consecutive ranks (and node).
    std::vector<Box> pieces(const std::vector<int>& ranks) const {
        std::vector<Box> out;
        for (std::size_t i = 0; i < ranks.size();) {
            std::size_t j = i + 1;
            while (j < ranks.size() && ranks[j] == ranks[j - 1] + 1) ++j;
            const std::vector<Box> run = pieces(ranks[i], static_cast<int>(j - i));
            out.insert(out.end(), run.begin(), run.end());
            i = j;
        }
        return out;
    }

    std::vector<Group> groups(const engine::Layout3D& l, Focus f) const {
        std::vector<Group> out;
        const std::vector<std::vector<int>> all = rank_groups(l, f, shown_gpus_);
        for (std::size_t d = 0; d < all.size(); ++d) {
            Group g{all[d], {}, pieces(all[d]), {}, {}, {}};
            if (f != Focus::pp) {
                g.outlines = g.focus;
                g.labels.push_back(label(g.focus.front(), tr(group_name(f), {{"n", int(d)}})));
            }
            if (f == Focus::pp) add_stages(l, g);
            if (f == Focus::cp || f == Focus::ep)
                g.handovers = handovers(pieces_of_cards(g.members), color_of(f));
            if (f == Focus::tp) g.lanes = lanes(g.focus);
            out.push_back(std::move(g));
        }
        return out;
    }
    Color color_of(Focus f) const { return group_color(palette_, f); }
    // One box per card: a CP or EP group's members need not be adjacent.
    std::vector<Box> pieces_of_cards(const std::vector<int>& ranks) const {
        std::vector<Box> out;
        for (int r : ranks) out.push_back(pieces(r, 1).front());
        return out;
    }

    // A replica's pipeline stages, outlined and named, with the activations handed between them.
    void add_stages(const engine::Layout3D& l, Group& g) const {
        std::map<int, std::vector<int>> stages;
        for (int r : g.members) stages[l.ranks[r].pp].push_back(r);
        for (const auto& [s, ranks] : stages) {
            const Box stage = pieces(ranks).front();
            g.outlines.push_back(stage);
            g.labels.push_back(label(stage, tr("stage {n}", {{"n", s}})));
        }
        g.handovers = handovers(g.outlines, palette_.comm);
    }
    static Label label(const Box& outline, std::string text) {
        return {group_label_at(outline), std::move(text)};
    }

    // Activations handed from each stage to the next: arcs under the cards in the same node,
    // a straight drop when the next stage sits on the next node.
    std::vector<Item> handovers(const std::vector<Box>& stages, Color color) const {
        constexpr int kArcPoints = 16;
        constexpr double kWidth = 4, kHead = 14, kDropHead = 16;
        std::vector<Item> out;
        for (std::size_t i = 0; i + 1 < stages.size(); ++i) {
            const Box& a = stages[i];
            const Box& b = stages[i + 1];
            if (std::abs(a.y - b.y) >= 1) {
                out.push_back(
                    {Arrow{{a.cx(), a.bottom()}, {b.cx(), b.y}, color, kWidth, kDropHead}});
                continue;
            }
            std::vector<Point> arc;
            for (int k = 0; k <= kArcPoints; ++k) {
                const double u = k / double(kArcPoints);
                arc.push_back({lerp(a.cx(), b.cx(), u),
                               a.bottom() + 2 + rack_.arc * std::sin(u * std::numbers::pi)});
            }
            out.push_back({Path{arc, false, std::nullopt, color, kWidth}});
            out.push_back({Arrow{arc[kArcPoints - 2], arc[kArcPoints], color, kWidth, kHead}});
        }
        return out;
    }

    // The stretches of NVLink bar under a TP group's pieces, kept clear of the outline's ends.
    std::vector<Lane> lanes(const std::vector<Box>& focus) const {
        std::vector<Lane> out;
        for (const Box& piece : focus) {
            const int node = node_of(piece);
            const double left = std::max(piece.x + kTpInset, bus_left(node));
            const double length = std::min(piece.right() - kTpInset, bus_right(node)) - left;
            if (length > 0) out.push_back({{left, bus_y(node)}, length});
        }
        return out;
    }

    // Which phase shows at t.
    int phase_at(double t) const {
        int k = 0;
        while (k + 1 < static_cast<int>(phase_starts_.size()) && phase_starts_[k + 1] <= t) ++k;
        return k;
    }

    // --- drawing --------------------------------------------------------------------------
    void add_rack(Scene& s, double t) const {
        const double links = links_in_.at(t);
        for (int n = 0; n < shown_nodes_; ++n) {
            const double u = nodes_in_.at(t, n);
            add_node_label(s, n, u);
            // NVLink inside the node: thick; the network between nodes: thin, in the label column.
            if (links > 0)
                s.add(Line{{bus_left(n), bus_y(n)},
                           {lerp(bus_left(n), bus_right(n), links), bus_y(n)},
                           palette_.muted,
                           nvlink_width_});
            if (n + 1 < rows_ && links > 0)
                s.add(Line{{network_x(), network_top(n)},
                           {network_x(), lerp(network_top(n), network_bottom(n + 1), links)},
                           palette_.muted,
                           2});
        }
        if (shown_nodes_ < nodes_) add_more_nodes(s, nodes_in_.at(t, shown_nodes_));
        // Roomy: beside the line under Node 0's name; dense: a header above the spine, clear of
        // every row.
        const Point note = rack_.dense ? Point{frame::kLeft, rack_.top - 14}
                                       : Point{kNetworkX + 12, rows_box_[0].bottom() - 40};
        if (nodes_ > 1)
            s.add(Text{note.x, note.y, tr("network"), style_of(Role::small), palette_.muted},
                  links);
    }

    // A 4D or 5D rack names its axes above the rack (rack_vocab.hpp's axes_legend).
    void add_axes_legend(Scene& s, double t) const {
        if (!more_axes_) return;  // dp x tp x pp: the cards' tags say it
        const Morph m = timeline_.morph_at(t);
        const double y = rack_.top - (rack_.dense ? kDenseLegendLift : kLegendLift);
        const double u = links_in_.at(t);
        add_legend(s, palette_, metrics_, kCardsLeft, y,
                   axes_legend(palette_, locale_, layouts_[m.from]), u * leaving(m));
        add_legend(s, palette_, metrics_, kCardsLeft, y,
                   axes_legend(palette_, locale_, layouts_[m.to]), u * arriving(m));
    }

    // "Node 3": in a roomy rack a framed row with its name in the band; in a dense one a bare
    // name beside the spine, centred on the cards, with a tick joining it to the network.
    void add_node_label(Scene& s, int n, double u) const {
        const Box& row = rows_box_[n];
        const std::string name = tr("Node {n}", {{"n", n}});
        if (!rack_.dense) {
            add_items(s, node_frame(palette_, row, name), u);
            return;
        }
        s.add(Text{kNodeLabelX,
                   centred_baseline(metrics_, name, kDenseName, cards_[n * per_node_].cy()), name,
                   kDenseName, palette_.muted},
              u);
        s.add(Line{{kSpineX, row.cy()}, {kNodeLabelX - 8, row.cy()}, palette_.grid, 2}, u);
    }

    // The row after the last one shown: how many nodes the rack has beyond it.
    void add_more_nodes(Scene& s, double u) const {
        const std::string text = tr("… {n} more nodes", {{"n", nodes_ - shown_nodes_}});
        s.add(Text{kCardsLeft,
                   centred_baseline(metrics_, text, kMoreNodes, rows_box_[rows_ - 1].cy()), text,
                   kMoreNodes, palette_.muted},
              u);
    }

    void add_cards(Scene& s, double t) const {
        const Morph m = timeline_.morph_at(t);
        const Focus f = phases_[phase_at(t)].focus;
        const double cap = report_at(t).per_gpu.capacity.value;
        const std::vector<MemorySegment> stack = memory_at(t);
        const std::vector<int> focused = focused_ranks(t);
        for (int r = 0; r < shown_gpus_; ++r) {
            const bool in_from = r < layouts_[m.from].gpus, in_to = r < layouts_[m.to].gpus;
            const double u = cards_in_.at(t, r) * lerp(in_from ? 1 : 0, in_to ? 1 : 0, m.u);
            if (u <= 0) continue;
            const Box& b = cards_[r];
            add_items(s, gpu_tile(palette_, metrics_, tile_of(b, r, f)), u);
            add_tags(s, b, r, f, m, u, focused);
            if (b.h >= kGaugeCard) {
                const Box gauge = top_of(bottom_of(inset(b, kGaugeInset, 0), kGaugeDrop), kGaugeH);
                add_items(s, memory_gauge(palette_, locale_, {gauge, cap, stack}), u);
            }
        }
    }

    // A card too short for a name above its tags is compact: one line, the number at its left
    // and the tag in focus at its right.
    bool compact(const Box& card) const { return card.h < kShortTile; }

    // A card is named "GPU 3" at its top; a compact one just "3", its right kept for the tag in
    // focus (the number gives way to the tag where both do not fit).
    TileSpec tile_of(const Box& b, int rank, Focus f) const {
        if (!compact(b)) return {b, tr("GPU {n}", {{"n", rank}}), kCompactNumber.size};
        const bool number = numbers_fit_ || f == Focus::none;
        return {b, number ? format_count(rank, locale_) : "", kCompactNumber.size, std::nullopt,
                true};
    }

    // Whether a card lists every tag under its name (above its gauge), or only the one in focus.
    static bool lists_all(const Box& card, std::size_t tags) {
        return card.h >= kTallCard + kTagPitch * (static_cast<double>(tags) - 3);
    }

    // Whether a compact card fits its number and the widest tag any state gives it, side by side.
    bool number_fits_beside_tags() const {
        double widest = 0;
        for (const engine::Layout3D& l : layouts_)
            for (int r = 0; r < std::min(l.gpus, shown_gpus_); ++r)
                for (const auto& [kind, text] : rank_tags(l, l.ranks[r], locale_))
                    widest = std::max(widest, metrics_.measure(text, kCompactTag).advance);
        const double digits = metrics_
                                  .measure(format_count(shown_gpus_ - 1, locale_),
                                           weighted(kCompactNumber, Weight::medium))
                                  .advance;
        return digits + widest + 3 * kCompactPad <= cards_[0].w;
    }

    // "TP rank 1", "stage 0", "replica 0": the coordinate in focus is highlighted; while tp/pp
    // morph, the old coordinates fade out as the new ones fade in. Tall cards list all three;
    // shorter ones only the one in focus, below the name or (compact) beside the number.
    void add_tags(Scene& s, const Box& b, int rank, Focus f, const Morph& m, double alpha,
                  const std::vector<int>& focused) const {
        const bool in_focus = std::binary_search(focused.begin(), focused.end(), rank);
        for (int side = 0; side < 2; ++side) {
            const auto& l = layouts_[side == 0 ? m.from : m.to];
            if (rank >= l.gpus) continue;
            const double a = alpha * (side == 0 ? leaving(m) : arriving(m));
            if (a <= 0) continue;
            double y = b.y + kTagTop;
            const auto tags = rank_tags(l, l.ranks[rank], locale_);
            const bool tall = lists_all(b, tags.size());
            for (const auto& [kind, text] : tags) {
                const bool lit = kind == f, hot = lit && in_focus;
                if (!tall && !lit) continue;
                const Color color = hot ? palette_.highlight : lit ? palette_.text : palette_.muted;
                if (compact(b)) {
                    s.add(Text{b.right() - kCompactPad,
                               centred_baseline(metrics_, text, kCompactTag, b.cy()), text,
                               kCompactTag, color, Align::right},
                          a);
                    continue;
                }
                const TextStyle style = sized(
                    weighted(style_of(Role::label), lit ? Weight::semibold : Weight::regular), 24);
                s.add(Text{b.x + 12, y, text, style, color}, a);
                y += kTagPitch;
            }
        }
    }

    // The group in focus at t (index into the groups, and how far the highlight has slid to it).
    std::pair<int, double> focus_at(double t, int count) const {
        const double start = phase_starts_[phase_at(t)];
        const double steps = std::max(0.0, (t - start - kFade) / kDwell);
        const int cur = std::min(count - 1, static_cast<int>(steps));
        return {cur, cur == 0 ? 1 : progress(t, start + kFade + cur * kDwell, kSlide)};
    }

    // The ranks of the group in focus, lowest first.
    std::vector<int> focused_ranks(double t) const {
        const Focus f = phases_[phase_at(t)].focus;
        if (f == Focus::none) return {};
        const auto& gs = groups_[timeline_.morph_at(t).to][static_cast<int>(f)];
        if (gs.empty()) return {};
        return gs[focus_at(t, static_cast<int>(gs.size())).first].members;
    }

    void add_groups(Scene& s, double t) const {
        const int k = phase_at(t);
        const Focus f = phases_[k].focus;
        if (f == Focus::none) return;
        const double alpha = phase_fades_[k].at(t);
        if (alpha <= 0) return;
        const Morph m = timeline_.morph_at(t);
        const auto& from = groups_[m.from][static_cast<int>(f)];
        const auto& to = groups_[m.to][static_cast<int>(f)];
        add_outlines(s, from, to, m.u, alpha, color_of(f));
        // The highlight steps through the groups, one every kDwell seconds, sliding between them.
        const int n = static_cast<int>(to.size());
        if (n == 0) return;
        const auto [cur, slide] = focus_at(t, n);
        const Group &a = to[std::max(0, cur - 1)], &b = to[cur];
        for (std::size_t i = 0; i < b.focus.size(); ++i) {
            const Box box = lerp(a.focus[std::min(i, a.focus.size() - 1)], b.focus[i], slide);
            s.add(outline(inflate(box, rack_.halo), 16, palette_.highlight, 4), alpha);
        }
        add_items(s, b.handovers, alpha * slide);
        if (f == Focus::tp) add_tp_traffic(s, t, b, alpha * slide);
        if (f == Focus::dp) add_dp_traffic(s, t, alpha);
        add_labels(s, from, to, m, alpha, b, color_of(f));
    }

    // Outlines morph from the old slicing to the new: each old outline slides into the new one
    // holding its first card (the first to arrive stays, the rest fade), and new outlines that
    // nothing slides into fade in where they are.
    void add_outlines(Scene& s, const std::vector<Group>& from, const std::vector<Group>& to,
                      double u, double alpha, Color color) const {
        std::vector<Box> a, b;
        for (const Group& g : from) a.insert(a.end(), g.outlines.begin(), g.outlines.end());
        for (const Group& g : to) b.insert(b.end(), g.outlines.begin(), g.outlines.end());
        const auto draw = [&](const Box& box, double v) {
            s.add(group_outline(box, color), v * kGroupOutlineAlpha);
        };
        if (u >= 1 || a.empty()) {
            for (const Box& box : b) draw(box, alpha);
            return;
        }
        std::vector<bool> reached(b.size(), false);
        for (const Box& pa : a) {
            const int j = containing(b, {pa.x + 20, pa.cy()});
            if (j < 0) {
                draw(pa, alpha * (1 - u));
                continue;
            }
            draw(lerp(pa, b[j], u), alpha * (reached[j] ? 1 - u : 1));
            reached[j] = true;
        }
        for (std::size_t j = 0; j < b.size(); ++j)
            if (!reached[j]) draw(b[j], alpha * u);
    }

    static int containing(const std::vector<Box>& boxes, Point p) {
        for (std::size_t j = 0; j < boxes.size(); ++j)
            if (boxes[j].contains(p)) return static_cast<int>(j);
        return -1;
    }

    // Group labels cross-fade through the middle of a re-slicing. A dense rack has no band above
    // its rows to hold them: the cards' tags name the groups.
    void add_labels(Scene& s, const std::vector<Group>& from, const std::vector<Group>& to,
                    const Morph& m, double alpha, const Group& focused, Color color) const {
        if (rack_.dense) return;
        const auto draw = [&](const std::vector<Group>& gs, double a) {
            if (a <= 0) return;
            for (const Group& g : gs)
                for (const Label& l : g.labels)
                    s.add(Text{l.at.x, l.at.y, l.text, kGroupLabel,
                               &g == &focused ? palette_.highlight : color},
                          a);
        };
        draw(from, alpha * leaving(m));
        draw(to, alpha * arriving(m));
    }

    // The focused TP group's all-reduce: chunks shuttling along its stretch of the NVLink bar.
    void add_tp_traffic(Scene& s, double t, const Group& g, double alpha) const {
        for (const Lane& lane : g.lanes)
            for (double d : chunk_offsets(std::max(0.0, t) * kTpSpeed, lane.length, kTpSpacing))
                s.items.push_back(
                    chunk(palette_, {lane.start.x + d, lane.start.y}, chunk_size_, alpha));
    }

    // Gradients all-reduced between replicas on the network: chunks down the rack's network line.
    void add_dp_traffic(Scene& s, double t, double alpha) const {
        if (nodes_ < 2) return;
        const double top = network_top(0), length = network_bottom(rows_ - 1) - top;
        for (double d : chunk_offsets(std::max(0.0, t) * kDpSpeed, length, kDpSpacing))
            s.items.push_back(chunk(palette_, {network_x(), top + d}, chunk_size_, alpha));
    }

    std::vector<engine::Layout3D> layouts_;
    int gpus_ = 1, per_node_ = 8, nodes_ = 1;
    int rows_ = 1, shown_nodes_ = 1, shown_gpus_ = 1;  // rows drawn, nodes among them, their cards
    Rack rack_ = kRoomy;
    bool numbers_fit_ = true;            // a compact card shows its number beside its tag
    std::vector<Box> rows_box_, cards_;  // one per row drawn, one per card slot of the nodes shown
    double nvlink_width_ = 0, chunk_size_ = kChunk;
    std::vector<GroupsByFocus> groups_;  // per state, per focus
    std::vector<Turn> phases_;
    bool more_axes_ = false;  // some state splits cp or ep
    std::vector<double> phase_starts_;
    std::vector<Fade> phase_fades_;
    const Stagger nodes_in_;
    Stagger cards_in_;
    const Fade links_in_;
};

// A node is one row of cards: past kMaxPerNode cards a row's cards are too narrow for a 22 px tag.
// (A rack of many nodes is drawn: its first nodes, then a row saying how many more.)
constexpr int kMaxPerNode = 16;

std::optional<std::string> cannot_draw(const engine::Config& c) {
    if (c.cluster.gpus_per_node <= kMaxPerNode) return std::nullopt;
    return "layout_3d draws at most " + std::to_string(kMaxPerNode) +
           " GPUs in a node's row of cards: gpus_per_node = " +
           std::to_string(c.cluster.gpus_per_node);
}

const KindRegistrar registrar{{
    .name = "layout_3d",
    .default_duration = kDefaultDuration,
    .settable = {"tp", "pp", "cp", "ep", "gpus", "gpus_per_node", "nodes", "model"},
    .make = make_of<Layout3dChapter>,
    .cannot_draw = cannot_draw,
    .shows = "a rack of nodes from the engine's rank placement: TP groups on NVLink, "
             "pipeline stages across, replicas across nodes, each highlighted in turn; with "
             "cp or ep above 1 (from `parallel:`) also context-parallel groups and "
             "expert-parallel groups (ep neighbouring replicas) outlined in their own "
             "colours, each card tagged with its CP rank and EP rank, and a legend above "
             "the rack naming every axis split in two or more with the link its groups "
             "cross (`cp 2 · NVLink`, `ep 4 · network`)",
    .sample = "model: mixtral-8x7b\n"
              "parallel: {gpus: 16, tp: 2, pp: 2}\n"
              "training: {micro_batches: 8}\n"
              "cluster: {gpu: h100-sxm-80gb, gpus_per_node: 8, nodes: 2}\n",
    .goldens = {{"chapter_layout_3d", 11.0, "pipeline stages of one replica in focus"}},
    .facts = {.rows = {rows::dp, rows::tp, rows::pp, rows::memory, rows::fits, rows::bubble},
              .formulas = {formulas::replicas, formulas::memory}},
}};

}  // namespace

}  // namespace story
