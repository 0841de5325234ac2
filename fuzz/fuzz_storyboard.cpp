// libFuzzer target: arbitrary bytes through the storyboard loader and validation
// (story::parse_storyboard), which must report diagnostics, never crash, hang or leak.
#include <cstddef>
#include <cstdint>
#include <string>

#include "story/load.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    story::Diagnostics diags;
    const auto board = story::parse_storyboard(text, "fuzz.yaml", diags);
    if (!board == diags.empty()) __builtin_trap();  // a storyboard exactly when no diagnostics
    return 0;
}
