// The step time predicted from what limits each part, without an assumed MFU (issue 32): the
// matrix multiplies at the efficiency their shapes reach, the host's per-layer work where it is
// longer, tensor-parallel collectives on every layer's critical path, the pipeline's send/receive
// and bubble, and the data-parallel reduction the last backward does not hide. Checked against
// nanotron's H100 runs (tests/data/measured/); each constant is explained in step_model.cpp.
#pragma once
#include "engine/config.hpp"
#include "engine/layout3d.hpp"
#include "engine/units.hpp"

namespace engine {

struct PredictedStep {
    double matmul_efficiency = 0;  // share of peak one GPU's matmuls reach at these shapes
    Seconds layer_gpu;             // one layer, one micro-batch, forward and backward, on the GPU
    Seconds layer_tp;              // of which tensor-parallel collectives (on the critical path)
    Seconds layer_host;            // what the host needs to issue the same layer
    Seconds stage;       // the busiest stage, one micro-batch: its layers and output layer
    Seconds p2p;         // one pipeline send or receive between stages
    Seconds pipeline;    // every micro-batch through the busiest stage, bubble included
    Seconds dp_exposed;  // data-parallel reduction not hidden, and ZeRO's gather after the step
    Seconds other;       // expert- and context-parallel traffic and offload's PCIe time
    Seconds seconds;     // pipeline + dp_exposed + other
    bool operator==(const PredictedStep&) const = default;
};

// Precondition: validate(c) is empty.
PredictedStep predicted_step(const Config& c);

// How many collectives the overlapped data-parallel reduction issues, each paying its ring's
// latency: one per 25 MB bucket of gradients (PyTorch DDP, and ZeRO-1 and -2's reduce-scatters,
// bucketed the same way), one per layer of the busiest stage with the weights sharded (FSDP
// reduce-scatters each unit's gradients as its backward ends).
double reduction_collectives(const Config& c);

// How long a collective takes on one GPU, sending `per_gpu` bytes over `steps` ring steps, inside
// a node (span.nodes 1: NVLink) or across nodes: steps x latency + per_gpu / bus bandwidth.
Seconds collective_seconds(const Config& c, Bytes per_gpu, int steps, GroupSpan span);

// Bus bandwidth a collective reaches inside a node: 436 GB/s on H100 (see step_model.cpp).
BytesPerSecond nvlink_bus_bandwidth(const Config& c);

// Bus bandwidth of a collective spanning span.nodes nodes with span.per_node members in each:
// the members' NICs or the fabric's fall with the node count, the lesser (see step_model.cpp).
BytesPerSecond bus_bandwidth(const Config& c, GroupSpan span);

// The exponent of the fabric's fall, from its two measured points (see step_model.cpp).
double span_falloff();

// The hops of NCCL's tree all-reduce over span: 2 (members per node - 1 + ceil(log2 nodes)).
int tree_hops(GroupSpan span);

// An all-reduce over `ranks` members of `span`, per_gpu being the bytes a ring moves per GPU: the
// faster of NCCL's ring and, across nodes, its tree (see step_model.cpp).
Seconds allreduce_seconds(const Config& c, Bytes per_gpu, int ranks, GroupSpan span);

inline constexpr double kMatmulPeakShare = 0.65;     // the best share of peak a layer reaches
inline constexpr double kTokensHalf = 256;           // tokens per micro-batch at half of it
inline constexpr double kWidthHalf = 512;            // hidden / tp at half of it
inline constexpr Seconds kHostPerLayer{4e-3};        // the host's work for a layer, fwd + bwd
inline constexpr Seconds kHostPerMicroBatch{20e-3};  // a pipeline engine's per micro-batch
inline constexpr Seconds kRingStepLatency{5e-6};     // one step of a ring collective
inline constexpr Bytes kDdpBucket{25e6};             // PyTorch DDP's bucket_cap_mb
inline constexpr double kTreeBandwidthShare = 0.92;  // NCCL's tree: of its ring's bandwidth
// The two measured all-reduces the fabric's fall runs through (see step_model.cpp): 436 GB/s of
// bus bandwidth inside one node of 8 H100s, 33 GB/s for 256 MB over 64 such nodes.
inline constexpr BytesPerSecond kNodeBus{436e9};
inline constexpr Bytes kSpanAnchorBytes{256e6};
inline constexpr double kSpanAnchorNodes = 64;
inline constexpr BytesPerSecond kSpanAnchorBus{33e9};

}  // namespace engine
