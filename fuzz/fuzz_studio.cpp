// libFuzzer target: requests to the studio's pages, called directly with no socket (fuzz/
// studio_input.hpp): request targets with their query strings (/frame.png?at=...&size=...,
// /numbers.json?t=..., /still.svg, /film.json?size=...) and whole requests (methods, headers,
// Host). Every request gets a reply, and no reply is a 500 (an exception the routes did not turn
// into a 400, 404 or 503).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/studio_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static fuzz::StudioInput studio;
    const std::string reply = studio.answer(std::string(reinterpret_cast<const char*>(data), size));
    if (fuzz::StudioInput::status(reply) == 500) __builtin_trap();
    return 0;
}
