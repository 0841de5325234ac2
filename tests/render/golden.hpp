// Golden-image comparison for painter tests: per channel tolerance 2, mismatch ratio 1e-4.
// SHARDREEL_REGEN_GOLDEN=1 rewrites the goldens (scripts/regen-golden.sh).
#pragma once
#include <string>

namespace render_test {

struct GoldenResult {
    bool ok = false;
    std::string message;  // why it failed, with the paths of the actual and diff images
};

// Compares rendered_png with golden_dir/NAME.png. On a mismatch writes NAME.actual.png and
// NAME.diff.png (mismatching pixels red over a faded copy) beside the golden.
GoldenResult compare_golden(const std::string& golden_dir, const std::string& name,
                            const std::string& rendered_png);

// compare_golden against tests/golden as a Catch2 check (or regenerates it when asked).
void check_golden(const std::string& name, const std::string& rendered_png);

}  // namespace render_test
