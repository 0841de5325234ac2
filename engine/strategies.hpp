// The strategies side by side for one model and cluster: the layout each one uses on the same
// GPUs, so their reports can be compared row by row.
#pragma once
#include <string_view>
#include <vector>

#include "engine/config.hpp"

namespace engine {

enum class Strategy { dp, zero1, zero2, fsdp, tp, pp, three_d };
std::string_view to_string(
    Strategy s);  // "DP", "ZeRO-1", "ZeRO-2", "FSDP (ZeRO-3)", "TP", "PP", "3D"

struct StrategyConfig {
    Strategy kind = Strategy::dp;
    Config config;
    bool operator==(const StrategyConfig&) const = default;
};

// The largest tensor-parallel degree that stays inside a node: divides the GPU count, the
// node size and the attention heads (query and key/value).
int node_tp_degree(const Config& base);

// On base's GPUs (base.layout.gpus): DP, ZeRO-1, ZeRO-2, FSDP over all of them; TP at
// node_tp_degree with data parallel over the rest; PP with as many stages as GPUs (at most one
// per layer), data parallel over the rest; 3D = node TP, the smallest pipeline of >= 2 stages
// (when the GPUs allow) whose first stage fits under ZeRO-1 (no ZeRO when one replica is left),
// data parallel over the rest; base's cp and ep kept in it where they still divide the GPUs (a
// 4D or 5D row), the other rows 1.
std::vector<StrategyConfig> strategy_configs(const Config& base);

}  // namespace engine
