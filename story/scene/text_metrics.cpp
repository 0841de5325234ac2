// Font-free text metrics for tests of layout logic that must not depend on render/.
#include "story/scene/text_metrics.hpp"

namespace story {

TextExtent ApproxTextMetrics::measure(std::string_view utf8, const TextStyle& style) const {
    std::size_t chars = 0;
    for (unsigned char c : utf8) chars += (c & 0xC0) != 0x80;  // count UTF-8 code points
    return {0.55 * style.size * static_cast<double>(chars), 0.97 * style.size, 0.24 * style.size};
}

}  // namespace story
