// The article page's figures: Cairo's SVG stills of a scene in the dark and the light theme made
// into one inline SVG that follows the reader's colour scheme, sharing glyphs with the page.
//   - Glyph outlines (Cairo's <symbol>s) move to one sheet for the whole page, each shape once:
//     eleven chapters' figures hold 596 kB of symbols, 195 kB of them different.
//   - Ids and class names are prefixed per figure, since an inline SVG's ids and <style> are
//     the document's.
//   - The two themes draw the same elements in the same order and differ only in colours (the
//     painter takes its palette from the theme), so each colour becomes var(--cN), N for its
//     (dark, light) pair, and the page's CSS sets the pairs per prefers-color-scheme. Should the
//     two ever differ in more than colour, both are kept, one shown per scheme.
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace render {

class FigureSheet {
  public:
    // The figure as inline SVG (no XML declaration, width 100%), named by `prefix`.
    std::string add(const std::string& dark_svg, const std::string& light_svg,
                    const std::string& prefix);
    // A hidden <svg> holding every glyph the figures use, for the top of the page.
    std::string glyph_sheet() const;
    // The colour variables: light values by default, dark ones under prefers-color-scheme: dark.
    std::string colour_css() const;

  private:
    std::string reshape(const std::string& svg, const std::string& prefix);
    std::string themed(const std::string& dark, const std::string& light);
    std::size_t colour(const std::string& dark, const std::string& light);

    std::map<std::string, std::size_t> glyph_ids_;  // outline (path data) -> g<N>
    std::vector<std::string> glyphs_;               // path data by N
    std::map<std::pair<std::string, std::string>, std::size_t> colour_ids_;
    std::vector<std::pair<std::string, std::string>> colours_;  // (dark, light) by N
};

}  // namespace render
