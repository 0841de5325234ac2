// Writing direction; see lang.hpp.
#include "story/lang.hpp"

#include <array>

namespace story {

bool is_rtl(std::string_view lang) {
    const std::string_view primary = lang.substr(0, lang.find('-'));
    static constexpr std::array<std::string_view, 4> rtl{"ar", "he", "fa", "ur"};
    for (std::string_view l : rtl)
        if (primary == l) return true;
    return false;
}

}  // namespace story
