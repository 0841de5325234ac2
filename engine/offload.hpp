// ZeRO-Offload and ZeRO-Infinity: what leaves the GPU for host memory, and the PCIe traffic that
// brings it back each step.
#pragma once
#include "engine/config.hpp"
#include "engine/flops.hpp"
#include "engine/units.hpp"

namespace engine {

// Parameters whose optimizer step this GPU owns: its ZeRO partition (dense over zero_shards(),
// routed experts over the expert-data-parallel group).
double partition_params(const Config& c);

struct OffloadTraffic {
    Bytes down, up;  // GPU -> host (gradients), host -> GPU (parameters), per GPU per step
    Seconds seconds;
    Bytes bytes() const { return down + up; }
    bool operator==(const OffloadTraffic&) const = default;
};

// Ren et al. 2021 (ZeRO-Offload), section 4: per step the fp16 gradients go down (2M bytes for M
// parameters) and the updated fp16 parameters come up (2M). Gradients go down every micro-batch
// (DeepSpeed accumulates them in host memory). With the parameters offloaded as well
// (Rajbhandari et al. 2021, ZeRO-Infinity) they live on the host and come up layer by layer for
// every micro-batch's forward and again for its backward. Time: each direction at half the GPU's
// PCIe figure (gpus.csv quotes both directions together), one after the other.
OffloadTraffic offload_traffic(const Config& c);

// One direction of the GPU's host link: half of gpus.csv's PCIe figure, which counts both.
BytesPerSecond pcie_each_way(const GpuSpec& g);

// The PCIe time a step does not hide, taken alone: all of it unless overlap = all (step_time
// counts it with the tensor, pipeline, expert and context traffic), else what the compute does
// not cover (ZeRO-Offload, Ren et al. 2021, overlaps the gradients' transfer with backward).
Seconds exposed_offload_seconds(const Config& c, const OffloadTraffic& o, const StepReport& s);

}  // namespace engine
