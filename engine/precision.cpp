// Bytes per parameter for each precision recipe, and the names the CLI and storyboards use.
#include "engine/precision.hpp"

namespace engine {

BytesPerParam bytes_per_param(Precision p, GradDtype g) {
    // Megatron keeps gradients in fp32 for accumulation when asked (--grad-dtype fp32).
    const double grads = g == GradDtype::fp32 ? 4 : 2;
    switch (p) {
        case Precision::fp32:
            // Plain fp32 Adam: weights 4, gradients 4, two fp32 moments 8, no master copy.
            return {4, 4, 8};
        case Precision::bf16_mixed:
            // ZeRO section 3.1: 2 + 2 + K, K = 12 (fp32 master weights, momentum, variance).
            return {2, grads, 12};
        case Precision::fp8_mixed:
            // fp8 weights (Micikevicius et al. 2022); the fp32 master and moments stay.
            return {1, grads, 12};
    }
    return {};
}

std::string_view to_string(Precision p) {
    switch (p) {
        case Precision::fp32:
            return "fp32";
        case Precision::bf16_mixed:
            return "bf16-mixed";
        case Precision::fp8_mixed:
            return "fp8-mixed";
    }
    return "";
}

std::optional<Precision> parse_precision(std::string_view s) {
    if (s == "fp32") return Precision::fp32;
    if (s == "bf16-mixed" || s == "bf16") return Precision::bf16_mixed;
    if (s == "fp8-mixed" || s == "fp8") return Precision::fp8_mixed;
    return std::nullopt;
}

std::string_view to_string(GradDtype g) { return g == GradDtype::fp32 ? "fp32" : "bf16"; }

std::optional<GradDtype> parse_grad_dtype(std::string_view s) {
    if (s == "bf16") return GradDtype::bf16;
    if (s == "fp32") return GradDtype::fp32;
    return std::nullopt;
}

}  // namespace engine
