// Bytes per parameter for each precision recipe, and the names the CLI and storyboards use.
#include "engine/precision.hpp"

#include "engine/names.hpp"

namespace engine {

double optimizer_state_bytes(Optimizer o) {
    switch (o) {
        case Optimizer::adam:
            return 8;  // momentum and variance, fp32
        case Optimizer::adam_8bit:
            return 2;  // both moments block-wise quantised to 8 bits
        case Optimizer::sgd_momentum:
        case Optimizer::lion:
        case Optimizer::muon:
            return 4;  // one fp32 momentum
        case Optimizer::adafactor:
            return 0;  // factored second moment: O(rows + columns), no momentum
    }
    return 8;
}

BytesPerParam bytes_per_param(Precision p, GradDtype g, Optimizer o) {
    // Megatron keeps gradients in fp32 for accumulation when asked (--grad-dtype fp32).
    const double grads = g == GradDtype::fp32 ? 4 : 2;
    const double state = optimizer_state_bytes(o);
    switch (p) {
        case Precision::fp32:
            // Plain fp32: weights 4, gradients 4, the optimizer's state, no master copy.
            return {4, 4, state};
        case Precision::bf16_mixed:
            // ZeRO section 3.1: 2 + 2 + K, K = 12 for Adam (fp32 master, momentum, variance).
            return {2, grads, 4 + state};
        case Precision::fp8_mixed:
            // fp8 weights (Micikevicius et al. 2022); the fp32 master and the state stay.
            return {1, grads, 4 + state};
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

namespace {
constexpr NameTable<GradAccumDtype, 2> kGradAccumNames = {{GradAccumDtype::same, "same"},
                                                          {GradAccumDtype::fp32, "fp32"}};
constexpr NameTable<Optimizer, 6> kOptimizerNames = {{Optimizer::adam, "adam"},
                                                     {Optimizer::adam_8bit, "adam-8bit"},
                                                     {Optimizer::sgd_momentum, "sgd-momentum"},
                                                     {Optimizer::lion, "lion"},
                                                     {Optimizer::adafactor, "adafactor"},
                                                     {Optimizer::muon, "muon"}};
}  // namespace

std::string_view to_string(Optimizer o) { return name_of(kOptimizerNames, o); }
std::optional<Optimizer> parse_optimizer(std::string_view s) {
    return value_of(kOptimizerNames, s);
}

std::string_view to_string(GradAccumDtype a) { return name_of(kGradAccumNames, a); }
std::optional<GradAccumDtype> parse_grad_accum_dtype(std::string_view s) {
    return value_of(kGradAccumNames, s);
}

std::optional<GradDtype> parse_grad_dtype(std::string_view s) {
    if (s == "bf16") return GradDtype::bf16;
    if (s == "fp32") return GradDtype::fp32;
    return std::nullopt;
}

}  // namespace engine
