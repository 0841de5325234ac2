// Inter faces from fonts/ only (FreeType, no fontconfig), shaped with HarfBuzz (kern, liga,
// and tnum for tabular figures), memoised; measures text for layout and draws it with Cairo.
#pragma once
#include <cairo.h>

#include <memory>
#include <string>
#include <string_view>

#include "story/text_metrics.hpp"

namespace render {

class Fonts final : public story::TextMetrics {
  public:
    explicit Fonts(const std::string& font_dir);  // throws SystemError if a face is missing
    ~Fonts() override;
    Fonts(const Fonts&) = delete;
    Fonts& operator=(const Fonts&) = delete;

    story::TextExtent measure(std::string_view utf8, const story::TextStyle& style) const override;
    // Draws shaped glyphs with the left end of the baseline at (x, y) in cr's user space.
    void draw(cairo_t* cr, std::string_view utf8, const story::TextStyle& style, double x,
              double y) const;
    // Content digest of every face file (for cache keys).
    std::string digest() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// fonts/ of the installation: $SHARDREEL_HOME/fonts, else the source tree's.
std::string default_font_dir();

}  // namespace render
