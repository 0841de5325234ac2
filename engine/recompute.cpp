// Activation coefficients and recompute cost, derived from memory.cpp's per-layer figure.
#include "engine/recompute.hpp"

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

ComputeUnits recompute_compute_units(const ModelSpec& m, const Training& t) {
    ComputeUnits u;
    if (t.recompute == Recompute::full) u.recompute = u.forward;
    if (t.recompute == Recompute::selective) {
        const double s = t.seq_len, h = m.hidden;
        u.recompute = u.forward * (4 * s * s * h) / (24 * s * h * h + 4 * s * s * h);
    }
    return u;
}

}  // namespace engine
