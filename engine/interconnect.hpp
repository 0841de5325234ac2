// Each strategy's traffic per step timed on either kind of link (NVLink inside a node, the
// network between nodes), so the bandwidth hierarchy can be compared strategy by strategy.
#pragma once
#include <string_view>

#include "engine/comm.hpp"
#include "engine/config.hpp"

namespace engine {

// gpus.csv: the NVLink figure counts both directions; a ring sends and receives at once.
BytesPerSecond nvlink_per_direction(const Cluster& c);

// The InfiniBand generation whose one port per GPU gives `per_gpu` one way, as GPU servers wire
// it (DGX A100: one HDR 200 Gb/s adapter a GPU, DGX H100 and H200: one NDR 400 Gb/s): "EDR" at
// 12.5 GB/s, "HDR" at 25, "NDR" at 50, "XDR" at 100; "" for any other bandwidth, a network the
// film does not name.
std::string_view infiniband_generation(BytesPerSecond per_gpu);

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
