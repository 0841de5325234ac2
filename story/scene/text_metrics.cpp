// Font-free text metrics for tests of layout logic that must not depend on render/.
#include "story/scene/text_metrics.hpp"

#include "story/text/lang.hpp"

namespace story {

TextExtent ApproxTextMetrics::measure(std::string_view utf8, const TextStyle& style) const {
    const std::size_t chars = code_points(utf8);
    return {0.55 * style.size * static_cast<double>(chars), 0.97 * style.size, 0.24 * style.size};
}

}  // namespace story
