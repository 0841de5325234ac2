// Bytes each parameter costs during training, by precision recipe (ZeRO paper, section 3.1).
#pragma once
#include <optional>
#include <string_view>

namespace engine {

enum class Precision { fp32, bf16_mixed, fp8_mixed };
enum class GradDtype { bf16, fp32 };

struct BytesPerParam {
    double weights = 0, gradients = 0, optimizer = 0;
    double total() const { return weights + gradients + optimizer; }
    bool operator==(const BytesPerParam&) const = default;
};

BytesPerParam bytes_per_param(Precision p, GradDtype g);

std::string_view to_string(Precision p);                       // "fp32", "bf16-mixed", "fp8-mixed"
std::optional<Precision> parse_precision(std::string_view s);  // also accepts "bf16", "fp8"
std::string_view to_string(GradDtype g);
std::optional<GradDtype> parse_grad_dtype(std::string_view s);

}  // namespace engine
