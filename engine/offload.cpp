// PCIe traffic of optimizer (and parameter) offload; see offload.hpp.
#include "engine/offload.hpp"

#include <algorithm>

#include "engine/memory.hpp"

namespace engine {

double partition_params(const Config& c) {
    const GpuParams p = params_on_gpu(c.model, c.layout);
    return p.dense / c.layout.zero_shards() + p.experts / c.layout.expert_dp();
}

OffloadTraffic offload_traffic(const Config& c) {
    const Offload o = c.layout.offload;
    if (o == Offload::none) return {};
    const Training& t = c.training;
    const BytesPerParam bpp = bytes_per_param(t.precision, t.grad_dtype, t.optimizer);
    const double m = partition_params(c), micro_batches = t.micro_batches;
    OffloadTraffic out;
    out.down = Bytes(m * bpp.gradients * micro_batches);
    // Offloaded parameters are updated in place on the host, then fetched for forward and
    // backward; otherwise the update comes up once.
    const double fetches = o == Offload::optimizer_params ? 2 * micro_batches : 1;
    out.up = Bytes(m * bpp.weights * fetches);
    out.seconds = out.bytes() / pcie_each_way(c.cluster.gpu);
    return out;
}

BytesPerSecond pcie_each_way(const GpuSpec& g) { return g.pcie / 2; }

Seconds exposed_offload_seconds(const Config& c, const OffloadTraffic& o, const StepReport& s) {
    if (c.training.overlap != Overlap::all) return o.seconds;
    return Seconds(std::max(0.0, o.seconds.value - s.compute_seconds));
}

}  // namespace engine
