// Parallel placement: global rank <-> (dp, pp, cp, tp) coordinates and node, Megatron style with
// tp fastest-varying so tensor-parallel groups share a node's NVLink, then cp, then pp, then dp
// (expert-parallel groups are adjacent dp ranks).
#pragma once
#include <vector>

#include "engine/config.hpp"

namespace engine {

// The groups of ranks that communicate: a tensor-, context- or pipeline-parallel group, the ranks
// holding the same weights (dp x cp), an expert-parallel group, a ZeRO-3 sharding group (all the
// replicas without hybrid sharding) and the copies of one shard across the sharding groups.
enum class RankGroup { tp, cp, pp, dp, ep, shard, replicas };

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
    bool within_node(RankGroup group) const;  // every group of that kind inside one node
    bool tp_within_node() const { return within_node(RankGroup::tp); }
    bool pp_within_node() const { return within_node(RankGroup::pp); }
    bool dp_within_node() const { return within_node(RankGroup::dp); }
};

Layout3D layout_3d(const Parallel& p, int gpus_per_node);
// The placement of a configuration's layout on its cluster's nodes.
Layout3D layout_3d(const Config& c);

// Whether every group of that kind sits in one node, from the layout's degrees alone (no rank
// list): what the planner asks of thousands of layouts of 16,384 GPUs. Agrees with the listed
// ranks for every small layout (tests/engine/layout3d_test.cpp).
bool within_node(const Parallel& p, int gpus_per_node, RankGroup group);

// How the group holding rank 0 spreads over nodes: how many nodes it spans and how many of its
// members share a node (each with its own NIC on an H100 node: the rails NCCL's rings run on).
struct GroupSpan {
    int nodes = 1, per_node = 1;
    bool operator==(const GroupSpan&) const = default;
};
GroupSpan group_span(const Parallel& p, int gpus_per_node, RankGroup group);

}  // namespace engine
