// Bytes each parameter costs during training, by precision recipe (ZeRO paper, section 3.1).
#pragma once
#include <optional>
#include <string_view>

namespace engine {

enum class Precision { fp32, bf16_mixed, fp8_mixed };
enum class GradDtype { bf16, fp32 };
// Where gradients accumulate across micro-batches: in themselves (same: grad_dtype, in place), or
// in a separate fp32 buffer beside 16-bit gradients (fp32: nanotron's accumulate_grad_in_fp32,
// optim/gradient_accumulator.py: each backward writes bf16 gradients, then adds them into the
// buffer, which ZeRO-1 keeps whole).
enum class GradAccumDtype { same, fp32 };
enum class Optimizer { adam, adam_8bit, sgd_momentum, lion, adafactor, muon };

struct BytesPerParam {
    double weights = 0, gradients = 0, optimizer = 0;
    double total() const { return weights + gradients + optimizer; }
    bool operator==(const BytesPerParam&) const = default;
};

// Mixed precision keeps an fp32 master copy (4 bytes) beside the optimizer's own state: Adam's
// two fp32 moments 8 (ZeRO's K = 12), 8-bit Adam's 2 (Dettmers et al. 2022), one fp32 momentum
// 4 for SGD, Lion (Chen et al. 2023) and Muon (Jordan et al. 2024), and Adafactor's factored
// second moment, rows + columns per matrix, counted as 0 per parameter (Shazeer and Stern 2018,
// with no first moment).
BytesPerParam bytes_per_param(Precision p, GradDtype g, Optimizer o = Optimizer::adam);
double optimizer_state_bytes(Optimizer o);  // per parameter, without the master copy

std::string_view to_string(Precision p);                       // "fp32", "bf16-mixed", "fp8-mixed"
std::optional<Precision> parse_precision(std::string_view s);  // also accepts "bf16", "fp8"
std::string_view to_string(GradDtype g);
std::optional<GradDtype> parse_grad_dtype(std::string_view s);
std::string_view to_string(GradAccumDtype a);  // "same", "fp32"
std::optional<GradAccumDtype> parse_grad_accum_dtype(std::string_view s);
std::string_view to_string(Optimizer o);  // "adam", "adam-8bit", "sgd-momentum", ...
std::optional<Optimizer> parse_optimizer(std::string_view s);

}  // namespace engine
