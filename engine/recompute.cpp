// Activation coefficients and recompute cost, derived from memory.cpp's per-layer figure.
#include "engine/recompute.hpp"

#include "engine/flops.hpp"
#include "engine/memory.hpp"

namespace engine {

ActivationCoefficients activation_coefficients(const ModelSpec& m, const Training& t, int tp) {
    ActivationCoefficients c;
    c.sbh = double(t.seq_len) * t.micro_batch * m.hidden;
    const double total = activation_bytes_per_layer(m, t, tp).value / c.sbh;
    // The scores are what FlashAttention drops: the same layer with them never stored.
    Training without_scores = t;
    without_scores.flash_attention = true;
    c.linear = activation_bytes_per_layer(m, without_scores, tp).value / c.sbh;
    c.scores = total - c.linear;
    return c;
}

ComputeUnits recompute_compute_units(const Config& c) {
    const FlopsReport f = step_flops(c);
    ComputeUnits u;
    u.recompute = (u.forward + u.backward) * (f.executed_per_step / f.model_per_step - 1);
    return u;
}

}  // namespace engine
