// libFuzzer target: arbitrary bytes through the storyboard loader, validation and timing
// (story::load_timed) in every language the storyboard lists, which must report diagnostics,
// never crash, hang or leak.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "story/load/timed.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    story::Diagnostics diags;
    std::vector<story::Diagnostic> warnings;
    const auto board = story::load_timed(text, "fuzz.yaml", diags, warnings);
    if (!board == diags.empty()) __builtin_trap();  // a storyboard exactly when no diagnostics
    for (std::size_t i = 1; board && i < board->languages.size(); ++i) {
        story::Diagnostics other;
        const auto translated =
            story::load_timed(text, "fuzz.yaml", other, warnings, {}, board->languages[i]);
        if (!translated == other.empty()) __builtin_trap();
    }
    return 0;
}
