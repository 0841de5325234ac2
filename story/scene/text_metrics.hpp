// How chapters measure text for layout without seeing HarfBuzz: render/ implements this with
// the shipped fonts; story tests may use an approximation.
#pragma once
#include <string_view>

#include "story/scene/scene.hpp"

namespace story {

struct TextExtent {
    double advance = 0;  // horizontal pen advance in px
    double ascent = 0;   // above the baseline, px (font-wide, not per glyph)
    double descent = 0;  // below the baseline, px, positive
};

class TextMetrics {
  public:
    virtual ~TextMetrics() = default;
    virtual TextExtent measure(std::string_view utf8, const TextStyle& style) const = 0;
};

// Rough metrics for tests that need no fonts: 0.55 em per character.
class ApproxTextMetrics final : public TextMetrics {
  public:
    TextExtent measure(std::string_view utf8, const TextStyle& style) const override;
};

}  // namespace story
