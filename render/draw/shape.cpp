// Itemising and shaping a line. Text that is left to right, Latin (or of no script, as numbers
// are) and all in Inter is one run shaped exactly as before the bidi and fallback layers existed:
// Latin script, left to right, the whole text as one HarfBuzz buffer.
#include "render/draw/shape.hpp"

#include <algorithm>
#include <iterator>
#include <optional>

#include "render/draw/bidi.hpp"
#include "story/text/lang.hpp"

namespace render {
namespace {

// Characters [first, last) of the line that share a level, a script and a face.
struct Item {
    std::size_t first = 0, last = 0;
    std::uint8_t level = 0;
    hb_script_t script = HB_SCRIPT_LATIN;
    std::size_t face = 0;
};

bool has_script(hb_script_t s) {
    return s != HB_SCRIPT_COMMON && s != HB_SCRIPT_INHERITED && s != HB_SCRIPT_UNKNOWN;
}

// Each character's script as shaped: common and inherited characters (spaces, digits,
// punctuation, marks) take the script before them, or the text's first script before any; Latin
// when the text has none.
std::vector<hb_script_t> scripts_of(const std::vector<std::uint32_t>& chars) {
    hb_unicode_funcs_t* ucd = hb_unicode_funcs_get_default();
    std::vector<hb_script_t> scripts;
    scripts.reserve(chars.size());
    hb_script_t first = HB_SCRIPT_INVALID;
    for (const std::uint32_t c : chars) {
        scripts.push_back(hb_unicode_script(ucd, c));
        if (first == HB_SCRIPT_INVALID && has_script(scripts.back())) first = scripts.back();
    }
    hb_script_t carry = first == HB_SCRIPT_INVALID ? HB_SCRIPT_LATIN : first;
    for (hb_script_t& s : scripts) {
        if (has_script(s))
            carry = s;
        else
            s = carry;
    }
    return scripts;
}

// Items in text order.
std::vector<Item> itemise(const BidiLine& line, const story::TextStyle& style,
                          const FaceTable& faces) {
    const std::vector<hb_script_t> scripts = scripts_of(line.chars);
    const std::vector<std::size_t> face =
        faces.faces_for(line.chars, scripts, style.weight, style.lang);
    std::vector<Item> items;
    for (std::size_t i = 0; i < line.chars.size(); ++i) {
        const Item next{i, i + 1, line.levels[i], scripts[i], face[i]};
        if (!items.empty() && items.back().level == next.level &&
            items.back().script == next.script && items.back().face == next.face) {
            items.back().last = next.last;
        } else {
            items.push_back(next);
        }
    }
    return items;
}

// Cairo clusters from HarfBuzz's (byte offsets of the characters each glyph came from), in text
// order: glyph order for a left-to-right run, from its last glyph back for a right-to-left one.
std::vector<cairo_text_cluster_t> clusters_of(const hb_glyph_info_t* info, unsigned count,
                                              std::size_t begin, std::size_t end, bool rtl) {
    std::vector<cairo_text_cluster_t> clusters;
    std::vector<std::size_t> starts;
    for (unsigned k = 0; k < count; ++k) {
        const unsigned i = rtl ? count - 1 - k : k, previous = rtl ? i + 1 : i - 1;
        if (k == 0 || info[i].cluster != info[previous].cluster) {
            clusters.push_back({0, 0});
            starts.push_back(k == 0 ? begin : info[i].cluster);
        }
        ++clusters.back().num_glyphs;
    }
    for (std::size_t k = 0; k < starts.size(); ++k) {
        const std::size_t next = k + 1 < starts.size() ? starts[k + 1] : end;
        clusters[k].num_bytes = static_cast<int>(next - starts[k]);
    }
    return clusters;
}

// A buffer of the line's bytes [begin, end); the whole line goes in as context, so joining and
// contextual forms see the neighbours.
hb_buffer_t* buffer_of(std::string_view utf8, std::size_t begin, std::size_t end) {
    hb_buffer_t* buffer = hb_buffer_create();
    hb_buffer_add_utf8(buffer, utf8.data(), static_cast<int>(utf8.size()),
                       static_cast<unsigned>(begin), static_cast<int>(end - begin));
    return buffer;
}

// Shapes buffer (of buffer_of) in the item's direction, script and face, and destroys it.
ShapedRun shape_run(hb_buffer_t* buffer, const Item& item, std::size_t begin, std::size_t end,
                    const story::TextStyle& style, const FaceTable& faces) {
    ShapedRun run;
    run.face = item.face;
    run.rtl = item.level % 2 == 1;
    run.begin = begin;
    run.end = end;
    hb_buffer_set_direction(buffer, run.rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR);
    hb_buffer_set_script(buffer, item.script);
    // Never the process's locale: an unknown language shapes as the font's default.
    hb_buffer_set_language(buffer, style.lang.empty()
                                       ? HB_LANGUAGE_INVALID
                                       : hb_language_from_string(style.lang.c_str(), -1));
    const hb_feature_t features[] = {
        {HB_TAG('k', 'e', 'r', 'n'), 1, HB_FEATURE_GLOBAL_START, HB_FEATURE_GLOBAL_END},
        {HB_TAG('l', 'i', 'g', 'a'), 1, HB_FEATURE_GLOBAL_START, HB_FEATURE_GLOBAL_END},
        {HB_TAG('c', 'a', 'l', 't'), 1, HB_FEATURE_GLOBAL_START, HB_FEATURE_GLOBAL_END},
        {HB_TAG('t', 'n', 'u', 'm'), style.tabular ? 1u : 0u, HB_FEATURE_GLOBAL_START,
         HB_FEATURE_GLOBAL_END},
    };
    hb_shape(faces.face(item.face).hb, buffer, features, std::size(features));

    unsigned count = 0;
    const hb_glyph_info_t* info = hb_buffer_get_glyph_infos(buffer, &count);
    const hb_glyph_position_t* pos = hb_buffer_get_glyph_positions(buffer, &count);
    run.glyphs.reserve(count);
    double pen = 0;
    for (unsigned i = 0; i < count; ++i) {
        run.glyphs.push_back({info[i].codepoint, pen + pos[i].x_offset, -1.0 * pos[i].y_offset});
        pen += pos[i].x_advance;
    }
    run.advance = pen;
    run.clusters = clusters_of(info, count, begin, end, run.rtl);
    hb_buffer_destroy(buffer);
    return run;
}

// The fast path, for most text: a line in a left-to-right language with no right-to-left
// character, only Latin or no script, and every glyph in Inter is one run, shaped without
// FriBidi or itemising. nullopt when the line is not such a line.
std::optional<ShapedRun> shape_simple(std::string_view utf8, const story::TextStyle& style,
                                      const FaceTable& faces) {
    if (story::is_rtl(style.lang)) return std::nullopt;
    hb_buffer_t* buffer = buffer_of(utf8, 0, utf8.size());
    unsigned count = 0;
    const hb_glyph_info_t* info = hb_buffer_get_glyph_infos(buffer, &count);
    hb_unicode_funcs_t* ucd = hb_unicode_funcs_get_default();
    for (unsigned i = 0; i < count; ++i) {
        if (info[i].codepoint < 0x80) continue;  // ASCII is Latin or common, left to right
        const hb_script_t script = hb_unicode_script(ucd, info[i].codepoint);
        if (may_run_rtl(info[i].codepoint) || (has_script(script) && script != HB_SCRIPT_LATIN)) {
            hb_buffer_destroy(buffer);
            return std::nullopt;
        }
    }
    const Item line{0, count, 0, HB_SCRIPT_LATIN, FaceTable::inter(style.weight)};
    ShapedRun run = shape_run(buffer, line, 0, utf8.size(), style, faces);
    const bool notdef = std::any_of(run.glyphs.begin(), run.glyphs.end(),
                                    [](const cairo_glyph_t& g) { return g.index == 0; });
    if (notdef) return std::nullopt;  // a character Inter lacks: the fallbacks may have it
    return run;
}

}  // namespace

std::vector<ShapedRun> shape_line(std::string_view utf8, const story::TextStyle& style,
                                  const FaceTable& faces) {
    if (std::optional<ShapedRun> run = shape_simple(utf8, style, faces)) return {std::move(*run)};
    const BidiLine line = bidi_line(utf8, style.lang);
    const std::vector<Item> items = itemise(line, style, faces);
    std::vector<std::uint8_t> levels;
    for (const Item& item : items) levels.push_back(item.level);
    std::vector<ShapedRun> runs;
    for (const std::size_t i : visual_order(levels)) {
        const std::size_t begin = line.offsets[items[i].first], end = line.offsets[items[i].last];
        runs.push_back(shape_run(buffer_of(utf8, begin, end), items[i], begin, end, style, faces));
    }
    return runs;
}

}  // namespace render
