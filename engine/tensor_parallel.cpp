// Tensor-parallel traffic figures, built on comm.cpp's per-step volume.
#include "engine/tensor_parallel.hpp"

#include "engine/comm.hpp"

namespace engine {

Bytes tp_allreduce_buffer(const Config& c) {
    // Korthikanti et al. 2022: activations cross TP boundaries in 16-bit, 2 bytes each.
    return Bytes(2.0 * c.training.seq_len * c.training.micro_batch * c.model.hidden);
}

TpLinkTimes tp_link_times(const Config& c) {
    // The same rule as group_bandwidth: a ring sends and receives at once, so NVLink's
    // bidirectional figure carries the traffic at half; the network figure is one way.
    const Bytes bytes = comm_per_step(c).tp_per_gpu;
    TpLinkTimes out;
    out.nvlink_bw = c.cluster.nvlink / 2;
    out.network_bw = c.cluster.network;
    out.on_nvlink = bytes / out.nvlink_bw;
    out.on_network = bytes / out.network_bw;
    return out;
}

}  // namespace engine
