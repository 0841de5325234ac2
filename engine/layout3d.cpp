// Megatron-style rank placement: tp fastest, then cp, then pp, then dp, so TP groups share NVLink.
#include "engine/layout3d.hpp"

#include <algorithm>
#include <numeric>

namespace engine {
namespace {

// One axis of the rank grid: rank = ((dp_i x pp + pp_i) x cp + cp_i) x tp + tp_i.
struct Axis {
    long long stride = 1, size = 1;
};

// Ranks split into groups: each group varies the `in` axes and fixes the `out` ones. Nodes hold
// consecutive ranks, so a group sits in one node when its lowest rank (its base) and its highest
// (base + span) do. Bases differ by the out axes' multiples of their strides; only their
// residues modulo a node's size matter, a set of at most gpus_per_node values.
bool within_node(long long per_node, const std::vector<Axis>& in, const std::vector<Axis>& out) {
    long long span = 0;
    for (const Axis& a : in) span += (a.size - 1) * a.stride;
    if (span == 0) return true;
    if (span >= per_node) return false;
    std::vector<char> reach(per_node, 0);
    reach[0] = 1;
    for (const Axis& a : out) {
        const long long steps = std::min(a.size, per_node / std::gcd(a.stride, per_node));
        std::vector<char> next(per_node, 0);
        for (long long r = 0; r < per_node; ++r) {
            if (!reach[r]) continue;
            for (long long j = 0; j < steps; ++j) next[(r + j * a.stride) % per_node] = 1;
        }
        reach.swap(next);
    }
    for (long long r = 0; r < per_node; ++r)
        if (reach[r] && r + span >= per_node) return false;
    return true;
}

struct Grid {
    long long tp, cp, pp, dp, ep, shard;
    Axis t() const { return {1, tp}; }
    Axis k() const { return {tp, cp}; }
    Axis s() const { return {tp * cp, pp}; }
    Axis d(long long from = 1, long long size = -1) const {  // dp ranks from x from, size of them
        return {tp * cp * pp * from, size < 0 ? dp / from : size};
    }
};

// A sharding group (`shard` adjacent replicas q = dp_i x cp + cp_i) or one shard's copies (the
// replicas q = r mod shard) as axes, where shard and cp nest (one divides the other); otherwise
// each rank's group is found by brute force, as a rank's replica index grows with its rank.
bool shard_within_node(const Grid& g, long long per_node, bool copies) {
    const long long cp = g.cp, sh = g.shard;
    if (cp % sh == 0) {  // the group is part of the cp axis
        const Axis inner{g.tp, sh}, outer{g.tp * sh, cp / sh};
        return copies ? within_node(per_node, {outer, g.d()}, {g.t(), inner, g.s()})
                      : within_node(per_node, {inner}, {g.t(), outer, g.s(), g.d()});
    }
    if (sh % cp == 0) {  // whole cp axes of sh / cp adjacent dp ranks
        const Axis inner = g.d(1, sh / cp), outer = g.d(sh / cp);
        return copies ? within_node(per_node, {outer}, {g.t(), g.k(), g.s(), inner})
                      : within_node(per_node, {g.k(), inner}, {g.t(), g.s(), outer});
    }
    std::vector<long long> node_of(g.tp * g.pp * (g.dp * cp), -1);
    for (long long rank = 0; rank < g.tp * cp * g.pp * g.dp; ++rank) {
        const long long t = rank % g.tp, k = rank / g.tp % cp, s = rank / (g.tp * cp) % g.pp;
        const long long q = rank / (g.tp * cp * g.pp) * cp + k;
        const long long key = ((copies ? q % sh : q / sh) * g.pp + s) * g.tp + t;
        long long& first = node_of[key];
        if (first >= 0 && first != rank / per_node) return false;
        first = rank / per_node;
    }
    return true;
}

bool grid_within_node(const Grid& g, long long per_node, RankGroup group) {
    switch (group) {
        case RankGroup::tp:
            return within_node(per_node, {g.t()}, {g.k(), g.s(), g.d()});
        case RankGroup::cp:
            return within_node(per_node, {g.k()}, {g.t(), g.s(), g.d()});
        case RankGroup::pp:
            return within_node(per_node, {g.s()}, {g.t(), g.k(), g.d()});
        case RankGroup::dp:
            return within_node(per_node, {g.k(), g.d()}, {g.t(), g.s()});
        // Megatron-Core folds EP into DP: ep adjacent dp ranks (ep-dp, ep the faster part).
        case RankGroup::ep:
            return within_node(per_node, {g.d(1, g.ep)}, {g.t(), g.k(), g.s(), g.d(g.ep)});
        case RankGroup::shard:
            return shard_within_node(g, per_node, false);
        case RankGroup::replicas:
            return shard_within_node(g, per_node, true);
    }
    return false;
}

// The members of a group made of the `in` axes whose ranks fall below `below`, counted by walking
// the axes (strides grow, so a branch stops at its first rank past the bound).
long long members_below(const std::vector<Axis>& in, size_t axis, long long base, long long below) {
    if (axis == in.size()) return base < below ? 1 : 0;
    long long count = 0;
    for (long long i = 0; i < in[axis].size && base + i * in[axis].stride < below; ++i)
        count += members_below(in, axis + 1, base + i * in[axis].stride, below);
    return count;
}

// A group's axes, as grid_within_node names them; none for a sharding group whose size and cp do
// not nest (its members are found rank by rank there).
std::vector<Axis> group_axes(const Grid& g, RankGroup group) {
    switch (group) {
        case RankGroup::tp:
            return {g.t()};
        case RankGroup::cp:
            return {g.k()};
        case RankGroup::pp:
            return {g.s()};
        case RankGroup::dp:
            return {g.k(), g.d()};
        case RankGroup::ep:
            return {g.d(1, g.ep)};
        case RankGroup::shard:
            if (g.cp % g.shard == 0) return {{g.tp, g.shard}};
            if (g.shard % g.cp == 0) return {g.k(), g.d(1, g.shard / g.cp)};
            return {};
        case RankGroup::replicas:
            if (g.cp % g.shard == 0) return {{g.tp * g.shard, g.cp / g.shard}, g.d()};
            if (g.shard % g.cp == 0) return {g.d(g.shard / g.cp)};
            return {};
    }
    return {};
}

}  // namespace

GroupSpan group_span(const Parallel& p, int gpus_per_node, RankGroup group) {
    const Grid g{p.tp, p.cp, p.pp, p.dp(), p.ep, p.zero_shards()};
    const std::vector<Axis> in = group_axes(g, group);
    if (in.empty()) {  // counted as one member a node: each of its links on its own NIC
        const long long dp_cp = g.dp * g.cp;
        return {int(group == RankGroup::shard ? g.shard : dp_cp / g.shard), 1};
    }
    long long size = 1;
    for (const Axis& a : in) size *= a.size;
    const long long per_node = std::max(1LL, members_below(in, 0, 0, gpus_per_node));
    return {int((size + per_node - 1) / per_node), int(per_node)};
}

bool within_node(const Parallel& p, int gpus_per_node, RankGroup group) {
    return grid_within_node({p.tp, p.cp, p.pp, p.dp(), p.ep, p.zero_shards()}, gpus_per_node,
                            group);
}

bool Layout3D::within_node(RankGroup group) const {
    return grid_within_node({tp, cp, pp, dp, ep, shard}, gpus_per_node, group);
}

// Megatron-LM's parallel_state builds its groups from an order string, default "tp-cp-ep-dp-pp";
// its tests also run "tp-cp-pp-ep-dp", the order kept here: a replica's pipeline stages sit on
// adjacent ranks, as Narayanan et al. 2021 place them and the layout_3d chapter draws them.
Layout3D layout_3d(const Parallel& p, int gpus_per_node) {
    Layout3D l{p.gpus, gpus_per_node, p.dp(), p.tp, p.pp, p.ep, p.cp, p.zero_shards(), {}};
    l.ranks.reserve(p.gpus);
    for (int d = 0; d < l.dp; ++d) {
        for (int s = 0; s < l.pp; ++s) {
            for (int k = 0; k < l.cp; ++k) {
                for (int t = 0; t < l.tp; ++t) {
                    // rank = ((dp * pp + pp_i) * cp + cp_i) * tp + tp_i; with cp = 1 Shoeybi et
                    // al. 2019 / Narayanan et al. 2021's (dp * pp + pp_i) * tp + tp_i.
                    const int rank = ((d * l.pp + s) * l.cp + k) * l.tp + t;
                    l.ranks.push_back(
                        {rank, rank / gpus_per_node, rank % gpus_per_node, d, s, t, k});
                }
            }
        }
    }
    return l;
}

Layout3D layout_3d(const Config& c) { return layout_3d(c.layout, c.cluster.gpus_per_node); }

}  // namespace engine
