// What the layout_3d and plan chapters say about a rank placement: which ranks form each kind of
// group (from engine::layout_3d's coordinates, never re-derived), the tags a card reads, the
// colour each kind of group is outlined in, and the legend of the axes a layout splits.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "engine/layout3d.hpp"
#include "story/draw/box.hpp"
#include "story/draw/legend.hpp"
#include "story/scene/text_metrics.hpp"
#include "story/scene/theme.hpp"
#include "story/text/locale.hpp"

namespace story {

// The rank placement of each configuration, and the most GPUs any of them has (the rack drawn).
std::vector<engine::Layout3D> layouts_of(const std::vector<engine::Config>& states);
int most_gpus(const std::vector<engine::Config>& states);

// A kind of group (none: no group in focus).
enum class RackFocus { none, tp, cp, pp, dp, ep };

// The groups of one kind among ranks [0, shown), each one's ranks lowest first, the groups
// ordered by their lowest rank. Ranks form one group when the engine gives them the same
// coordinates on every axis but the group's: a TP group shares (dp, pp, cp), a CP group (dp, pp,
// tp), a replica (and its pipeline, for pp) dp, an EP group (dp / ep, pp, cp, tp): ep
// consecutive replicas, Megatron-Core's expert-data order.
std::vector<std::vector<int>> rank_groups(const engine::Layout3D& l, RackFocus f, int shown);

// A rank's coordinates as its card's tags read them, in the locale's words: TP rank, CP rank
// (cp > 1), stage, replica, EP rank (dp mod ep, ep > 1); brief ("TP 3", "stage 1") for narrow
// cards.
std::vector<std::pair<RackFocus, std::string>> rank_tags(const engine::Layout3D& l,
                                                         const engine::RankPlace& p,
                                                         const Locale& locale, bool brief = false);

// The widest tag (in `style`) any of ranks [0, shown) of any of the layouts reads.
double widest_tag(const std::vector<engine::Layout3D>& layouts, int shown, const Locale& locale,
                  const TextMetrics& metrics, const TextStyle& style);

// The model's loaf inside a rack's card (layout_3d), top right, kRackLoafRight px in: kRackLoafW
// wide, from kRackLoafTop under the card's top to kRackLoafGap above `bottom` px over its bottom
// (its gauge). It fits where the card's text, `text` px wide from pad px in, ends kRackLoafGap
// before it.
inline constexpr double kRackLoafW = 26, kRackLoafTop = 14, kRackLoafGap = 6, kRackLoafRight = 8;
Box rack_loaf_box(const Box& card, double bottom);
bool rack_loaf_fits(const Box& card, double pad, double text);

// Outlines: tp, pp and dp groups in the text colour, cp and ep groups in their own.
Color group_color(const Palette& p, RackFocus f);

// A group's outline around its cards (the box already inflated), drawn at kGroupOutlineAlpha of
// the picture's alpha, and where its name's baseline starts, above its top-left corner.
inline constexpr double kGroupOutlineAlpha = 0.7;
Rect group_outline(const Box& box, Color color);
Point group_label_at(const Box& outline);

// The untranslated name of a group of that kind, with {n} its index: "TP group {n}", "CP group
// {n}", "EP group {n}"; a replica's ("replica {n}") for dp and pp (a pipeline is its replica's).
const char* group_name(RackFocus f);

// The network between a cluster's nodes as a rack names it: "InfiniBand" where it is one
// InfiniBand port a GPU (engine::infiniband_generation; the ring and interconnect chapters add its
// generation), else the catalogue's "network".
std::string rack_network_name(const engine::Cluster& c, const Locale& locale);

// Every axis split in two or more, with the link its groups cross (engine::Layout3D::within_node):
// "tp 8 · NVLink", "cp 2 · NVLink", "dp 4 · InfiniBand" ("dp 4 · network" off InfiniBand).
std::vector<LegendEntry> axes_legend(const Palette& p, const Locale& locale,
                                     const engine::Layout3D& l, const engine::Cluster& cluster);

}  // namespace story
