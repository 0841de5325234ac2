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
#include "story/chapter/chapter_base.hpp"
#include "story/chapter/rack_turns.hpp"
#include "story/draw/draw.hpp"
#include "story/text/format.hpp"
#include "story/vocab/cluster_vocab.hpp"
#include "story/vocab/loaf.hpp"
#include "story/vocab/rack_geometry.hpp"
#include "story/vocab/rack_vocab.hpp"

namespace story {

namespace {

constexpr double kDefaultDuration = 24;

using Focus = RackFocus;
constexpr int kFocusKinds = 6;
constexpr double kRackAt = 0.3, kLinksAt = 2.0, kLinksFor = 0.6;
constexpr double kCardsAfterRack = 0.3;  // s, not scaled
constexpr double kNodeStagger = 0.1, kCardStagger = 0.04, kCardsWithin = 2.4;
// The highlight rests kDwell s on each group, sliding kSlide s to the next; groups fade kFade s.
constexpr double kDwell = 1.2, kSlide = 0.4, kFade = 0.4;

// The dense rack's node labels sit beside its network spine; a compact card pads its number and
// tag kCompactPad from its edges.
constexpr double kNodeLabelX = frame::kLeft + 30, kCompactPad = 12;
// Cards: tall ones list all three tags (kTagPitch apart from kTagTop), shorter ones the tag in
// focus; cards at least kGaugeCard tall show a memory gauge along their bottom.
constexpr double kTallCard = 170, kTagTop = 66, kTagPitch = 30, kGaugeCard = 110;
constexpr double kGaugeInset = 12, kGaugeDrop = 26, kGaugeH = 12;
constexpr double kLegendLift = 24, kDenseLegendLift = 14;  // the axes' legend above the rack

// Text styles: node names, the dense rack's smaller ones, tags, group labels, notes.
const TextStyle kNodeName = weighted(style_of(Role::label), Weight::semibold);
const TextStyle kDenseName = sized(kNodeName, 24);
const TextStyle kMoreNodes = sized(style_of(Role::note), 24);
const TextStyle kCompactNumber = style_of(Role::small);
const TextStyle kCompactTag = weighted(style_of(Role::small), Weight::semibold);
const TextStyle kGroupLabel = kCompactTag;
const TextStyle kTag = sized(weighted(style_of(Role::label), Weight::semibold), 24);  // in focus

struct Label {
    Point at;  // baseline start, above the outline it names
    std::string text;
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
          layouts_(layouts_of(timeline_.states())),
          geo_(most_gpus(timeline_.states()), timeline_.states()[0].cluster.gpus_per_node),
          rack_(geo_.rack()),
          nodes_in_{at(kRackAt), kNodeStagger},
          // The stagger shortens for big racks, so every card is in before the first group shows.
          cards_in_{Stagger{at(kRackAt) + kCardsAfterRack, kCardStagger}.within(kCardsWithin,
                                                                                geo_.shown_gpus())},
          links_in_(Fade::in(at(kLinksAt), kLinksFor)) {
        numbers_fit_ = number_fits_beside_tags();
        loaf_fits_ = loaf_fits();
        phases_ = rack_turns(timeline_.states());
        more_axes_ = std::ranges::any_of(phases_, [](const RackTurn& turn) {
            return turn.focus == Focus::cp || turn.focus == Focus::ep;
        });
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
    // --- groups, built once ------------------------------------------------------------
    std::vector<Group> groups(const engine::Layout3D& l, Focus f) const {
        std::vector<Group> out;
        const std::vector<std::vector<int>> all = rank_groups(l, f, geo_.shown_gpus());
        for (std::size_t d = 0; d < all.size(); ++d) {
            Group g{all[d], {}, geo_.pieces(all[d]), {}, {}, {}};
            if (f != Focus::pp) {
                g.outlines = g.focus;
                g.labels.push_back(label(g.focus.front(), tr(group_name(f), {{"n", int(d)}})));
            }
            if (f == Focus::pp) add_stages(l, g);
            if (f == Focus::cp || f == Focus::ep)
                g.handovers = geo_.handovers(geo_.pieces_of_cards(g.members), color_of(f));
            if (f == Focus::tp) g.lanes = geo_.lanes(g.focus);
            out.push_back(std::move(g));
        }
        return out;
    }
    Color color_of(Focus f) const { return group_color(palette_, f); }

    // A replica's pipeline stages, outlined and named, with the activations handed between them.
    void add_stages(const engine::Layout3D& l, Group& g) const {
        std::map<int, std::vector<int>> stages;
        for (int r : g.members) stages[l.ranks[r].pp].push_back(r);
        for (const auto& [s, ranks] : stages) {
            const Box stage = geo_.pieces(ranks).front();
            g.outlines.push_back(stage);
            g.labels.push_back(label(stage, tr("stage {n}", {{"n", s}})));
        }
        g.handovers = geo_.handovers(g.outlines, palette_.comm);
    }
    static Label label(const Box& outline, std::string text) {
        return {group_label_at(outline), std::move(text)};
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
        for (int n = 0; n < geo_.shown_nodes(); ++n) {
            const double u = nodes_in_.at(t, n);
            add_node_label(s, n, u);
            // NVLink inside the node: thick; the network between nodes: thin, in the label column.
            if (links > 0)
                s.add(Line{{geo_.bus_left(n), geo_.bus_y(n)},
                           {lerp(geo_.bus_left(n), geo_.bus_right(n), links), geo_.bus_y(n)},
                           palette_.muted,
                           geo_.nvlink_width()});
            if (n + 1 < geo_.rows() && links > 0)
                s.add(Line{{geo_.network_x(), geo_.network_top(n)},
                           {geo_.network_x(),
                            lerp(geo_.network_top(n), geo_.network_bottom(n + 1), links)},
                           palette_.muted,
                           2});
        }
        if (geo_.shown_nodes() < geo_.nodes())
            add_more_nodes(s, nodes_in_.at(t, geo_.shown_nodes()));
        // Roomy: beside the line under Node 0's name; dense: a header above the spine, clear of
        // every row.
        const Point note = rack_.dense ? Point{frame::kLeft, rack_.top - 14}
                                       : Point{kRackNetworkX + 12, geo_.row(0).bottom() - 40};
        if (geo_.nodes() > 1)
            s.add(Text{note.x, note.y,
                       rack_network_name(timeline_.states()[timeline_.morph_at(t).shown()].cluster,
                                         locale_),
                       style_of(Role::small), palette_.muted},
                  links);
    }

    // A 4D or 5D rack names its axes above the rack (rack_vocab.hpp's axes_legend).
    void add_axes_legend(Scene& s, double t) const {
        if (!more_axes_) return;  // dp x tp x pp: the cards' tags say it
        const Morph m = timeline_.morph_at(t);
        const auto& states = timeline_.states();
        const double y = rack_.top - (rack_.dense ? kDenseLegendLift : kLegendLift);
        const double u = links_in_.at(t);
        add_legend(s, palette_, metrics_, kRackCardsLeft, y,
                   axes_legend(palette_, locale_, layouts_[m.from], states[m.from].cluster),
                   u * leaving(m));
        add_legend(s, palette_, metrics_, kRackCardsLeft, y,
                   axes_legend(palette_, locale_, layouts_[m.to], states[m.to].cluster),
                   u * arriving(m));
    }

    // "Node 3": in a roomy rack a framed row with its name in the band; in a dense one a bare
    // name beside the spine, centred on the cards, with a tick joining it to the network.
    void add_node_label(Scene& s, int n, double u) const {
        const Box& row = geo_.row(n);
        const std::string name = tr("Node {n}", {{"n", n}});
        if (!rack_.dense) {
            add_items(s, node_frame(palette_, row, name), u);
            return;
        }
        s.add(
            Text{kNodeLabelX,
                 centred_baseline(metrics_, name, kDenseName, geo_.card(n * geo_.per_node()).cy()),
                 name, kDenseName, palette_.muted},
            u);
        s.add(Line{{kRackSpineX, row.cy()}, {kNodeLabelX - 8, row.cy()}, palette_.grid, 2}, u);
    }

    // The row after the last one shown: how many nodes the rack has beyond it.
    void add_more_nodes(Scene& s, double u) const {
        const std::string text = tr("… {n} more nodes", {{"n", geo_.nodes() - geo_.shown_nodes()}});
        s.add(Text{kRackCardsLeft,
                   centred_baseline(metrics_, text, kMoreNodes, geo_.row(geo_.rows() - 1).cy()),
                   text, kMoreNodes, palette_.muted},
              u);
    }

    void add_cards(Scene& s, double t) const {
        const Morph m = timeline_.morph_at(t);
        const Focus f = phases_[phase_at(t)].focus;
        const double cap = report_at(t).per_gpu.capacity.value;
        const std::vector<MemorySegment> stack = memory_at(t);
        const std::vector<int> focused = focused_ranks(t);
        for (int r = 0; r < geo_.shown_gpus(); ++r) {
            const bool in_from = r < layouts_[m.from].gpus, in_to = r < layouts_[m.to].gpus;
            const double u = cards_in_.at(t, r) * lerp(in_from ? 1 : 0, in_to ? 1 : 0, m.u);
            if (u <= 0) continue;
            const Box& b = geo_.card(r);
            add_items(s, gpu_tile(palette_, metrics_, tile_of(b, r, f)), u);
            add_tags(s, b, r, f, m, u, focused);
            if (b.h >= kGaugeCard) {
                const Box gauge = top_of(bottom_of(inset(b, kGaugeInset, 0), kGaugeDrop), kGaugeH);
                add_items(s, memory_gauge(palette_, locale_, {gauge, cap, stack}), u);
            }
            add_loaf(s, t, b, r, u);
        }
    }

    // From the tp phase, the model's loaf in each card as the card holds it: its tp piece of
    // every slice, from the pp phase only its stage's chunk; cp and dp ranks hold the same.
    void add_loaf(Scene& s, double t, const Box& b, int rank, double alpha) const {
        const int k = timeline_.morph_at(t).shown();
        const engine::Layout3D& l = layouts_[k];
        if (!loaf_fits_ || !turned_to(phases_, phase_at(t), Focus::tp) || rank >= l.gpus) return;
        const bool chunks = turned_to(phases_, phase_at(t), Focus::pp);
        add_loaf_inset(s, palette_, rack_loaf_box(b, kGaugeDrop), slices_[k], l.tp,
                       rank_holds(l.ranks[rank], slices_[k], l.pp, chunks), alpha);
    }
    // Whether every card has room for its loaf right of its name and tags, above its gauge.
    bool loaf_fits() const {
        const Box& b = geo_.card(0);
        const std::string name = tr("GPU {n}", {{"n", geo_.shown_gpus() - 1}});
        const double text =
            std::max(widest_tag(layouts_, geo_.shown_gpus(), locale_, metrics_, kTag),
                     metrics_.measure(name, kCompactNumber).advance);
        return !compact(b) && b.h >= kGaugeCard && rack_loaf_fits(b, kCompactPad, text);
    }

    // A card too short for a name above its tags is compact: its number, then the tag in focus.
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
        const double widest =
            widest_tag(layouts_, geo_.shown_gpus(), locale_, metrics_, kCompactTag);
        const double digits = metrics_
                                  .measure(format_count(geo_.shown_gpus() - 1, locale_),
                                           weighted(kCompactNumber, Weight::medium))
                                  .advance;
        return digits + widest + 3 * kCompactPad <= geo_.card(0).w;
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
                s.add(Text{b.x + 12, y, text, lit ? kTag : weighted(kTag, Weight::regular), color},
                      a);
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
        const auto& gs = groups_[timeline_.morph_at(t).shown()][static_cast<int>(f)];
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
        add_outlines(s, from, alpha * leaving(m), color_of(f));
        add_outlines(s, to, alpha * arriving(m), color_of(f));
        // The highlight steps through the shown state's groups, one every kDwell seconds, sliding
        // between them; through a re-slicing it dims to nothing at halfway, where it changes
        // groups.
        const auto& shown = groups_[m.shown()][static_cast<int>(f)];
        const int n = static_cast<int>(shown.size());
        if (n == 0) return;
        const auto [cur, slide] = focus_at(t, n);
        const Group &a = shown[std::max(0, cur - 1)], &b = shown[cur];
        for (std::size_t i = 0; i < b.focus.size(); ++i) {
            const Box box = lerp(a.focus[std::min(i, a.focus.size() - 1)], b.focus[i], slide);
            s.add(outline(inflate(box, rack_.halo), 16, palette_.highlight, 4),
                  alpha * swap_alpha(m));
        }
        add_items(s, b.handovers, alpha * slide);
        if (f == Focus::tp) add_items(s, geo_.tp_traffic(palette_, b.lanes, t), alpha * slide);
        if (f == Focus::dp) add_items(s, geo_.dp_traffic(palette_, t), alpha);
        add_labels(s, from, to, m, alpha, b, color_of(f));
    }

    // A slicing's outlines where its groups are. A re-slicing fades the old ones out, then the new
    // ones in: an outline sliding between the two would cut through cards.
    void add_outlines(Scene& s, const std::vector<Group>& groups, double alpha, Color color) const {
        if (alpha <= 0) return;
        for (const Group& g : groups)
            for (const Box& box : g.outlines)
                s.add(group_outline(box, color), alpha * kGroupOutlineAlpha);
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

    const std::vector<engine::Layout3D> layouts_;  // per state
    const RackGeometry geo_;                       // big enough for every state
    const Rack rack_;
    bool numbers_fit_ = true;  // a compact card shows its number beside its tag
    bool loaf_fits_ = false;   // every card has room for its loaf
    const std::vector<int> slices_ = loaf_slices(timeline_.states());  // each state's loaf
    std::vector<GroupsByFocus> groups_;                                // per state, per focus
    std::vector<RackTurn> phases_;
    bool more_axes_ = false;  // some state splits cp or ep
    std::vector<double> phase_starts_;
    std::vector<Fade> phase_fades_;
    const Stagger nodes_in_, cards_in_;
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
             "cross (`cp 2 · NVLink`, `ep 4 · InfiniBand`; `network` where the nodes' network "
             "is not InfiniBand); from the TP turn, where a card's text "
             "leaves room, its loaf (its TP piece of every slice, from the stages' turn only its "
             "stage's chunk)",
    .sample = "model: mixtral-8x7b\n"
              "parallel: {gpus: 16, tp: 2, pp: 2}\n"
              "training: {micro_batches: 8}\n"
              "cluster: {gpu: h100-sxm-80gb, gpus_per_node: 8, nodes: 2}\n",
    .goldens = {{"chapter_layout_3d", 11.0, "pipeline stages of one replica in focus"}},
    .phases = rack_turn_phases(),
    .phases_of = [](const ChapterSpec& spec) { return rack_turn_phases(chapter_states(spec)); },
    .facts = {.rows = {rows::dp, rows::tp, rows::pp, rows::memory, rows::fits, rows::bubble},
              .formulas = {formulas::replicas, formulas::memory}},
}};

}  // namespace

}  // namespace story
