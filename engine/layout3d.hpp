// 3D parallel placement: global rank <-> (dp, pp, tp) coordinates and node, Megatron style
// with tp fastest-varying so tensor-parallel groups share a node's NVLink.
#pragma once
#include <vector>

#include "engine/config.hpp"

namespace engine {

struct RankPlace {
    int rank = 0, node = 0, local = 0;  // local = index within the node
    int dp = 0, pp = 0, tp = 0;
    bool operator==(const RankPlace&) const = default;
};

struct Layout3D {
    int gpus = 0, gpus_per_node = 0, dp = 0, tp = 0, pp = 0;
    std::vector<RankPlace> ranks;  // index = global rank
    bool tp_within_node() const;   // every TP group inside one node
    bool pp_within_node() const;   // every pipeline (one DP replica's stages) inside one node
    bool dp_within_node() const;   // every DP group inside one node
};

Layout3D layout_3d(const Parallel& p, int gpus_per_node);

// Whether every group of `size` ranks `stride` apart (tp: stride 1; pp: tp; dp: tp x pp) sits in
// one node of gpus_per_node consecutive ranks, without listing the ranks: what the planner asks
// thousands of times for layouts of 16,384 GPUs. Layout3D's *_within_node agree (tests/engine).
bool groups_within_node(int gpus, int gpus_per_node, int stride, int size);
bool tp_within_node(const Parallel& p, int gpus_per_node);
bool pp_within_node(const Parallel& p, int gpus_per_node);
bool dp_within_node(const Parallel& p, int gpus_per_node);

}  // namespace engine
