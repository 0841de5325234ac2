// Activation checkpointing's two sides: what a layer keeps per activation element, and the
// compute a step costs when the forward pass is run again during backward.
#pragma once
#include "engine/config.hpp"

namespace engine {

// Bytes a layer keeps per s x b x h element (activation_bytes_per_layer / sbh), split into the
// part linear in s and the attention scores (5as/h), which FlashAttention and selective
// recompute never store. Korthikanti et al. 2022, eq. 1-4.
struct ActivationCoefficients {
    double sbh = 0;     // s x b x h elements
    double linear = 0;  // 34, or 10 + 24/t with TP, 34/t with SP, 2 under full recompute
    double scores = 0;  // 5as/h (/t with TP), 0 when not stored
    double total() const { return linear + scores; }
};
ActivationCoefficients activation_coefficients(const ModelSpec& m, const Training& t, int tp);

// Compute of a step relative to no recompute, in units of one layer's forward pass: forward 1,
// backward 2 (Narayanan et al. 2021) and the part of the forward recomputed during backward.
struct ComputeUnits {
    double forward = 1, backward = 2, recompute = 0;
    double total() const { return forward + backward + recompute; }
    double ratio() const { return total() / (forward + backward); }  // 4/3 under full recompute
};
// The step's executed FLOPs over its model FLOPs (step_flops), in those units: full recompute
// reruns the layers' forward (Chen et al. 2016; Korthikanti et al. 2022, section 5: 72bslh^2 ->
// 96bslh^2, +33%, a little less here as the output layer is not recomputed); selective reruns the
// attention core's forward, 4bs^2h of a GPT layer's 24bsh^2 + 4bs^2h (Narayanan et al. 2021,
// appendix): +1/21 at s = h.
ComputeUnits recompute_compute_units(const Config& c);

}  // namespace engine
