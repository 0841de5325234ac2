// Megatron tensor parallelism's traffic, piece by piece: the activation buffer each all-reduce
// carries, how many a layer issues, and what a step's TP traffic costs on NVLink vs the network.
#pragma once
#include "engine/config.hpp"
#include "engine/units.hpp"

namespace engine {

// Shoeybi et al. 2019, section 3: f and g operators, two all-reduces in the forward pass of a
// layer (after attention, after the MLP) and two in the backward pass.
inline constexpr int kTpAllReducesPerLayer = 4;

// One all-reduce's buffer: s x b x h activations in 16-bit (Korthikanti et al. 2022).
Bytes tp_allreduce_buffer(const Config& c);

// A step's TP traffic per GPU (comm_per_step) timed on either link, no overlap: NVLink one way
// (half the bidirectional figure, as group_bandwidth counts a ring) and the network.
struct TpLinkTimes {
    BytesPerSecond nvlink_bw, network_bw;
    Seconds on_nvlink, on_network;
};
TpLinkTimes tp_link_times(const Config& c);

}  // namespace engine
