// libFuzzer target: the command line of `numbers` and `plan` (fuzz/flags_input.hpp), one argument
// a line, the command first: every flag the settings table gives them, --model, --params and a
// custom shape, --global-batch, --format, --top, --tokens, --at. A bad command line exits 2 with
// its errors; none crashes, hangs, leaks or throws anything main() does not catch.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/flags_input.hpp"
#include "fuzz/private_dir.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // An empty working directory: a storyboard named on the line is not found.
    static const bool moved =
        (std::filesystem::current_path(fuzz::private_dir("shardreel-fuzz-flags")), true);
    (void)moved;
    const auto args = fuzz::flag_arguments(std::string(reinterpret_cast<const char*>(data), size));
    if (args.empty()) return 0;
    const int code = fuzz::run_flags(args);
    if (code != 0 && code != 2) __builtin_trap();  // neither done nor refused
    return 0;
}
