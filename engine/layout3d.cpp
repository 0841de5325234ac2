// Megatron-style rank placement: tp fastest, then pp, then dp, so TP groups share NVLink.
#include "engine/layout3d.hpp"

namespace engine {

bool Layout3D::tp_within_node() const { return groups_within_node(gpus, gpus_per_node, 1, tp); }
bool Layout3D::pp_within_node() const { return groups_within_node(gpus, gpus_per_node, tp, pp); }
bool Layout3D::dp_within_node() const {
    return groups_within_node(gpus, gpus_per_node, tp * pp, dp);
}

bool groups_within_node(int gpus, int gpus_per_node, int stride, int size) {
    const long long block = 1LL * stride * size, span = 1LL * stride * (size - 1) + 1;
    if (size <= 1 || (block <= gpus_per_node && gpus_per_node % block == 0)) return true;
    if (span > gpus_per_node) return false;
    // Otherwise each group's first and last rank: groups start at q x block + j, j < stride.
    for (long long base = 0; base < gpus; base += block) {
        for (long long j = 0; j < stride; ++j) {
            const long long first = base + j, last = first + span - 1;
            if (first / gpus_per_node != last / gpus_per_node) return false;
        }
    }
    return true;
}

bool tp_within_node(const Parallel& p, int gpus_per_node) {
    return groups_within_node(p.gpus, gpus_per_node, 1, p.tp);
}
bool pp_within_node(const Parallel& p, int gpus_per_node) {
    return groups_within_node(p.gpus, gpus_per_node, p.tp, p.pp);
}
bool dp_within_node(const Parallel& p, int gpus_per_node) {
    return groups_within_node(p.gpus, gpus_per_node, p.tp * p.pp, p.dp());
}

Layout3D layout_3d(const Parallel& p, int gpus_per_node) {
    Layout3D l{p.gpus, gpus_per_node, p.dp(), p.tp, p.pp, {}};
    l.ranks.reserve(p.gpus);
    for (int d = 0; d < l.dp; ++d) {
        for (int s = 0; s < l.pp; ++s) {
            for (int t = 0; t < l.tp; ++t) {
                // Shoeybi et al. 2019 / Narayanan et al. 2021: rank = (dp * pp + pp_i) * tp + tp_i.
                const int rank = (d * l.pp + s) * l.tp + t;
                l.ranks.push_back({rank, rank / gpus_per_node, rank % gpus_per_node, d, s, t});
            }
        }
    }
    return l;
}

}  // namespace engine
