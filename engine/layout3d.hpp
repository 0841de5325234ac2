// Parallel placement: global rank <-> (dp, pp, cp, tp) coordinates and node, Megatron style with
// tp fastest-varying so tensor-parallel groups share a node's NVLink, then cp, then pp, then dp
// (expert-parallel groups are adjacent dp ranks).
#pragma once
#include <vector>

#include "engine/config.hpp"

namespace engine {

struct RankPlace {
    int rank = 0, node = 0, local = 0;  // local = index within the node
    int dp = 0, pp = 0, tp = 0;
    int cp = 0;
    bool operator==(const RankPlace&) const = default;
};

struct Layout3D {
    int gpus = 0, gpus_per_node = 0, dp = 0, tp = 0, pp = 0;
    int ep = 1;                    // expert-parallel groups: ep consecutive dp ranks
    int cp = 1;                    // context-parallel ranks per sequence
    int shard = 1;                 // ZeRO-3 sharding group: adjacent replicas (dp x cp, cp faster)
    std::vector<RankPlace> ranks;  // index = global rank
    bool tp_within_node() const;   // every TP group inside one node
    bool pp_within_node() const;   // every pipeline (one DP replica's stages) inside one node
    bool dp_within_node() const;   // every group of weight replicas (dp x cp) inside one node
    bool ep_within_node() const;   // every expert-parallel group inside one node
    bool cp_within_node() const;   // every context-parallel group inside one node
    bool shard_within_node() const;     // every sharding group inside one node (all replicas: dp)
    bool replicas_within_node() const;  // every group of one shard's copies inside one node
};

Layout3D layout_3d(const Parallel& p, int gpus_per_node);

}  // namespace engine
