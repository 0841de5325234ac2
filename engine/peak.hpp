// The expected peak memory of one GPU, as a profiler reports it: beside the first-order figure
// "on paper" (model states and activations, memory.hpp), what a real run also holds at its peak,
// each term from its source. Checked against measured runs in tests/engine/measured_runs_test.cpp.
#pragma once
#include "engine/config.hpp"
#include "engine/units.hpp"

namespace engine {

// One stage's GPU at its peak: the end of a forward pass, every micro-batch the schedule holds
// kept, the last one's loss computed.
struct PeakTerms {
    // Model states as the framework holds them: ZeRO's shards and offload as on paper.
    Bytes weights, gradients, optimizer;
    Bytes grad_accum;  // the fp32 accumulation buffer beside 16-bit gradients (grad_accum_dtype)
    // Communication buffers.
    Bytes dp_buckets;  // PyTorch DDP's flat gradient buckets (ZeRO-0, more than 1 replica)
    // Weights gathered whole: ZeRO-1's all-gather of the updated weights after the step, ZeRO-3's
    // layer computing and the one prefetched.
    Bytes param_gather;
    Bytes tp_gather;    // the whole sequence gathered for a column-parallel matmul (with SP)
    Bytes activations;  // a layer as autograd keeps it x the stage's layers x micro-batches held
    Bytes logits;       // the output layer's logits, their fp32 copy and the fp32 softmax/gradient
    // The caching allocator's reserve: blocks it keeps beyond the tensors live at the peak, a
    // share of what is allocated and freed every micro-batch (activations, logits, the gather
    // buffer); kAllocatorReserve, peak.cpp.
    Bytes reserve;
    Bytes context;            // the CUDA context and NCCL's buffers: not PyTorch's allocator's
    Bytes allocator() const;  // every term but the context: torch.cuda.max_memory_reserved()
    Bytes total() const;      // allocator() + context: what nvidia-smi shows
    bool operator==(const PeakTerms&) const = default;
};

struct StagePeak {
    PeakTerms terms;
    int layers = 0;
    double in_flight = 0;  // micro-batches whose activations it holds
    bool operator==(const StagePeak&) const = default;
};

struct ExpectedPeak {
    // Stage 0 (world rank 0, which the benchmarks log) and the stage with the output layer: the
    // same stage when pp is 1, and the same GPU under DualPipe.
    StagePeak first, last;
    Bytes total;  // the larger of the two: what must fit
    bool operator==(const ExpectedPeak&) const = default;
};

// Precondition: validate(c) is empty.
ExpectedPeak expected_peak(const Config& c);

// A layer's activations as autograd keeps them, one micro-batch on one GPU: Korthikanti et al.'s
// count for GPT blocks (activation_bytes_per_layer); for Llama-style blocks the same method
// applied to what they keep instead (see peak.cpp).
Bytes expected_activation_bytes_per_layer(const ModelSpec& m, const Training& t, int tp,
                                          int cp = 1);

// The CUDA context and NCCL's communicators on an H100 (see peak.cpp).
inline constexpr Bytes kCudaNcclContext{1.06e9};
// The caching allocator's fragmentation, as a share of the memory allocated and freed per
// micro-batch (see peak.cpp).
inline constexpr double kAllocatorReserve = 0.15;

}  // namespace engine
