// Each strategy's traffic per step timed on either kind of link (NVLink inside a node, the
// network between nodes), so the bandwidth hierarchy can be compared strategy by strategy.
#pragma once
#include "engine/comm.hpp"
#include "engine/config.hpp"

namespace engine {

// gpus.csv: the NVLink figure counts both directions; a ring sends and receives at once.
BytesPerSecond nvlink_per_direction(const Cluster& c);

struct LinkTiming {
    Bytes bytes;                    // per GPU per step (comm_per_step)
    Seconds on_nvlink, on_network;  // the same bytes on one direction of each link
    bool crosses_nodes = false;     // in this layout the group spans nodes (layout_3d)
    bool operator==(const LinkTiming&) const = default;
};
struct LinkTimings {
    LinkTiming dp, tp, pp;
    bool operator==(const LinkTimings&) const = default;
};
LinkTimings link_timings(const Config& c);

}  // namespace engine
