// Strategy traffic on NVLink versus the network: comm_per_step's bytes over each link's
// one-direction bandwidth, and whether the layout makes the group cross nodes.
#include "engine/interconnect.hpp"

#include <cmath>
#include <utility>

#include "engine/layout3d.hpp"

namespace engine {

BytesPerSecond nvlink_per_direction(const Cluster& c) { return c.nvlink / 2; }

namespace {

LinkTiming timing(const Config& c, Bytes bytes, bool within_node) {
    return {bytes, bytes / nvlink_per_direction(c.cluster), bytes / c.cluster.network,
            !within_node};
}

}  // namespace

LinkTimings link_timings(const Config& c) {
    const CommPerStep s = comm_per_step(c);
    const int g = c.cluster.gpus_per_node;
    return {timing(c, s.dp_per_gpu, within_node(c.layout, g, RankGroup::dp)),
            timing(c, s.tp_per_gpu, within_node(c.layout, g, RankGroup::tp)),
            timing(c, s.pp_per_gpu, within_node(c.layout, g, RankGroup::pp))};
}

std::string_view infiniband_generation(BytesPerSecond per_gpu) {
    // Signalling rate per port in Gb/s (InfiniBand Trade Association roadmap), 8 bits a byte.
    static constexpr std::pair<double, std::string_view> kPorts[] = {
        {100, "EDR"}, {200, "HDR"}, {400, "NDR"}, {800, "XDR"}};
    for (const auto& [gbits, name] : kPorts)
        if (std::abs(per_gpu.value - gbits * 1e9 / 8) < 1e6) return name;
    return "";
}

}  // namespace engine
