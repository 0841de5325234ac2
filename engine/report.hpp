// The full set of figures for one configuration: what `shardreel numbers` prints and what
// chapters draw. One call, so every number on screen comes from the same place.
#pragma once
#include "engine/comm.hpp"
#include "engine/config.hpp"
#include "engine/flops.hpp"
#include "engine/memory.hpp"
#include "engine/offload.hpp"

namespace engine {

struct ActivationsReport {
    Bytes per_layer;
    int layers_per_gpu = 0;
    double in_flight_micro_batches = 0;  // fractional with interleaved chunks
    bool operator==(const ActivationsReport&) const = default;
};

struct Report {
    double params = 0;
    double params_active = 0;  // per token: all of them unless the model has experts
    BytesPerParam bytes_per_param;
    Bytes model_states;
    int gpus_to_hold_model_states = 0;
    Parallel layout;
    PerGpu per_gpu;
    ActivationsReport activations;
    CommPerStep comm;
    OffloadTraffic offload;
    double bubble_fraction = 0;
    FlopsReport flops;
    StepReport step;
    bool operator==(const Report&) const = default;
};

// Precondition: validate(c) is empty.
Report analyze(const Config& c);

}  // namespace engine
