// The one exception type for system failures (I/O, codec, Cairo), carrying the library's message.
#pragma once
#include <stdexcept>
#include <string>

namespace render {

struct SystemError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace render
