// Text measured for layout and drawn with Cairo: Inter from fonts/ (FreeType, no fontconfig), Noto
// from Debian's fonts-noto packages for the scripts Inter lacks, right-to-left runs ordered by
// FriBidi, shaped with HarfBuzz (kern, liga, and tnum for tabular figures), memoised.
#pragma once
#include <cairo.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "story/scene/text_metrics.hpp"

namespace render {

// What draw() draws, one run of one face in one direction; runs come left to right.
struct GlyphRun {
    std::string face;    // the face's file: "Inter-Regular.otf", "NotoSansCJK-Regular.ttc"
    std::string family;  // "Inter", "Noto Sans CJK JP"
    bool rtl = false;
    std::size_t begin = 0, end = 0;  // the UTF-8 bytes of the text it draws
    std::vector<unsigned> glyphs;    // glyph ids, left to right (0 is the face's .notdef)
};

class Fonts final : public story::TextMetrics {
  public:
    // Inter from font_dir (throws SystemError if a face is missing) and the Noto fallbacks found
    // in fallback_dirs (Debian's by default); a script with no fallback draws as Inter's .notdef.
    explicit Fonts(const std::string& font_dir,
                   const std::vector<std::string>& fallback_dirs = default_fallback_dirs());
    ~Fonts() override;
    Fonts(const Fonts&) = delete;
    Fonts& operator=(const Fonts&) = delete;

    // The advance of the shaped line; ascent and descent are Inter's at style's weight, whatever
    // faces draw the line, so lines in any language stack alike.
    story::TextExtent measure(std::string_view utf8, const story::TextStyle& style) const override;
    // Draws shaped glyphs with the left end of the baseline at (x, y) in cr's user space.
    void draw(cairo_t* cr, std::string_view utf8, const story::TextStyle& style, double x,
              double y) const;
    std::vector<GlyphRun> runs(std::string_view utf8, const story::TextStyle& style) const;
    // The fallback scripts with no face installed ("Arabic", "Hebrew", "Devanagari", "CJK").
    std::vector<std::string> missing_scripts() const;
    // Content digest of Inter's files and of every fallback file found (for cache keys).
    std::string digest() const;

    static std::vector<std::string> default_fallback_dirs();

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// fonts/ of the installation: $SHARDREEL_HOME/fonts, else the source tree's.
std::string default_font_dir();

}  // namespace render
