// libFuzzer target: the page's calculator module built natively from the very sources and
// definitions of build/shardreel-calc.wasm (calc/sources.cmake: no exceptions, nlohmann_json
// aborting instead of throwing), called as calc.js calls it: the input's bytes in calc_input's
// buffer, then calc_numbers. Its answer is always one JSON object holding a report or errors;
// an abort (what an exception becomes in the browser) is a crash.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>

extern "C" {
char* calc_input(std::size_t n);
const char* calc_settings();
const char* calc_numbers();
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const bool listed = calc_settings() != nullptr;  // once, as the page does
    (void)listed;
    if (size)
        std::memcpy(calc_input(size), data, size);
    else
        calc_input(0);
    const auto answer = nlohmann::json::parse(calc_numbers(), nullptr, false);
    if (!answer.is_object() || answer.size() != 1) __builtin_trap();
    if (answer.contains("report") ? !answer["report"].is_string() : !answer["errors"].is_array())
        __builtin_trap();
    return 0;
}
