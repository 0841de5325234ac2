// Megatron-style rank placement: tp fastest, then cp, then pp, then dp, so TP groups share NVLink.
#include "engine/layout3d.hpp"

namespace engine {
namespace {

// True when every group (ranks sharing key(r)) lives on one node.
template <class Key>
bool groups_within_node(const std::vector<RankPlace>& ranks, int groups, Key key) {
    std::vector<int> node(groups, -1);
    for (const RankPlace& r : ranks) {
        int& first = node[key(r)];
        if (first >= 0 && first != r.node) return false;
        first = r.node;
    }
    return true;
}

}  // namespace

bool Layout3D::tp_within_node() const {
    return groups_within_node(ranks, dp * pp * cp,
                              [&](const RankPlace& r) { return (r.dp * pp + r.pp) * cp + r.cp; });
}

bool Layout3D::pp_within_node() const {
    return groups_within_node(ranks, dp * cp * tp,
                              [&](const RankPlace& r) { return (r.dp * cp + r.cp) * tp + r.tp; });
}

// Gradients synchronise over the dp x cp ranks holding the same weights.
bool Layout3D::dp_within_node() const {
    return groups_within_node(ranks, pp * tp, [&](const RankPlace& r) { return r.pp * tp + r.tp; });
}

bool Layout3D::cp_within_node() const {
    return groups_within_node(ranks, dp * pp * tp,
                              [&](const RankPlace& r) { return (r.dp * pp + r.pp) * tp + r.tp; });
}

// Hybrid sharding: replica q = dp x cp + cp_i; groups of `shard` adjacent replicas shard the
// weights, and the replicas q mod shard hold copies of the same shard.
bool Layout3D::shard_within_node() const {
    return groups_within_node(ranks, dp * cp / shard * pp * tp, [&](const RankPlace& r) {
        return ((r.dp * cp + r.cp) / shard * pp + r.pp) * tp + r.tp;
    });
}

bool Layout3D::replicas_within_node() const {
    return groups_within_node(ranks, shard * pp * tp, [&](const RankPlace& r) {
        return ((r.dp * cp + r.cp) % shard * pp + r.pp) * tp + r.tp;
    });
}

// Megatron-Core folds EP into DP: an expert-parallel group is ep data-parallel ranks adjacent in
// the order (ep-dp: ep the faster part of dp).
bool Layout3D::ep_within_node() const {
    return groups_within_node(ranks, dp / ep * pp * cp * tp, [&](const RankPlace& r) {
        return ((r.dp / ep * pp + r.pp) * cp + r.cp) * tp + r.tp;
    });
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

}  // namespace engine
