// FSDP / ZeRO-3 per-layer events: gather, compute, reshard forward and backward, then
// reduce-scatter of the gradients, in the order PyTorch FSDP issues them.
#pragma once
#include <vector>

#include "engine/config.hpp"
#include "engine/units.hpp"

namespace engine {

enum class FsdpOp { gather, forward, reshard, gather_backward, backward, reduce_scatter };

struct FsdpEvent {
    FsdpOp op = FsdpOp::gather;
    int layer = 0;
    double start = 0, duration = 0;  // in abstract step units (one layer forward = 1)
    Bytes live_bytes_after;          // per-GPU resident memory once this event ends
    bool operator==(const FsdpEvent&) const = default;
};

struct FsdpPlan {
    int layers = 0, shards = 0;
    Bytes sharded_states;    // per-GPU model states when every layer is resharded
    Bytes layer_full_bytes;  // one layer's gathered weights (the transient peak addition)
    Bytes
        layer_grad_bytes;  // one layer's unsharded gradients, alive from backward to reduce-scatter
    Bytes peak_bytes;      // sharded + gathered layer + its unsharded gradients
    std::vector<FsdpEvent> events;
    double duration() const;
};

FsdpPlan fsdp_plan(const Config& c);

}  // namespace engine
