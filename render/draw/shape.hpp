// One line of text shaped for drawing: split into bidi runs (bidi.hpp), then by script and by
// the face that has each character (FaceTable), each piece shaped by HarfBuzz with its direction,
// script and language, laid out from left to right.
#pragma once
#include <cairo.h>

#include <string_view>
#include <vector>

#include "render/draw/face_table.hpp"
#include "story/scene/scene.hpp"

namespace render {

struct ShapedRun {
    std::size_t face = 0;  // a FaceTable id
    bool rtl = false;
    std::size_t begin = 0, end = 0;     // the UTF-8 bytes of the text it draws
    std::vector<cairo_glyph_t> glyphs;  // left to right, in font units from the run's start
    // Cairo's clusters over the run's bytes, in text order: from the last glyph back when rtl
    // (CAIRO_TEXT_CLUSTER_FLAG_BACKWARD).
    std::vector<cairo_text_cluster_t> clusters;
    double advance = 0;  // font units
};

// The runs in the order they are drawn, left to right. Kerning, ligatures and contextual
// alternates are on, and tabular figures when style.tabular.
std::vector<ShapedRun> shape_line(std::string_view utf8, const story::TextStyle& style,
                                  const FaceTable& faces);

}  // namespace render
