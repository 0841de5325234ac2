// FriBidi resolves the levels (rules P2 to L1); HarfBuzz's buffer decodes the UTF-8, so malformed
// bytes become U+FFFD exactly as the shaper sees them.
#include "render/draw/bidi.hpp"

#include <fribidi.h>
#include <hb.h>

#include <algorithm>
#include <new>
#include <numeric>

#include "story/text/lang.hpp"

namespace render {
namespace {

void decode(std::string_view utf8, BidiLine& line) {
    hb_buffer_t* buffer = hb_buffer_create();
    hb_buffer_add_utf8(buffer, utf8.data(), static_cast<int>(utf8.size()), 0,
                       static_cast<int>(utf8.size()));
    unsigned count = 0;
    const hb_glyph_info_t* info = hb_buffer_get_glyph_infos(buffer, &count);
    line.chars.reserve(count);
    line.offsets.reserve(count + 1);
    for (unsigned i = 0; i < count; ++i) {
        line.chars.push_back(info[i].codepoint);
        line.offsets.push_back(info[i].cluster);
    }
    line.offsets.push_back(utf8.size());
    hb_buffer_destroy(buffer);
}

bool rtl_type(FriBidiCharType t) {
    return FRIBIDI_IS_RTL(t) || FRIBIDI_IS_ARABIC(t) || FRIBIDI_IS_EXPLICIT(t) ||
           FRIBIDI_IS_ISOLATE(t);
}

}  // namespace

BidiLine bidi_line(std::string_view utf8, std::string_view lang) {
    BidiLine line;
    decode(utf8, line);
    const auto size = static_cast<FriBidiStrIndex>(line.chars.size());
    std::vector<FriBidiCharType> types(line.chars.size());
    const FriBidiChar* chars = line.chars.data();
    fribidi_get_bidi_types(chars, size, types.data());
    line.levels.assign(line.chars.size(), 0);
    FriBidiParType base = story::is_rtl(lang) ? FRIBIDI_PAR_RTL : FRIBIDI_PAR_WLTR;
    line.rtl = base == FRIBIDI_PAR_RTL;
    if (line.chars.empty() || (!line.rtl && std::none_of(types.begin(), types.end(), rtl_type)))
        return line;

    std::vector<FriBidiBracketType> brackets(line.chars.size());
    fribidi_get_bracket_types(chars, size, types.data(), brackets.data());
    static_assert(sizeof(FriBidiLevel) == sizeof(std::uint8_t));
    auto* levels = reinterpret_cast<FriBidiLevel*>(line.levels.data());
    // Both return 0 only when they could not allocate.
    if (fribidi_get_par_embedding_levels_ex(types.data(), brackets.data(), size, &base, levels) ==
        0)
        throw std::bad_alloc();
    // The last part of rule L1: spaces at the end of the line go to the paragraph's level.
    if (fribidi_reorder_line(FRIBIDI_FLAGS_DEFAULT, types.data(), size, 0, base, levels, nullptr,
                             nullptr) == 0)
        throw std::bad_alloc();
    line.rtl = FRIBIDI_IS_RTL(base);
    return line;
}

bool may_run_rtl(std::uint32_t c) { return rtl_type(fribidi_get_bidi_type(c)); }

std::vector<std::size_t> visual_order(const std::vector<std::uint8_t>& run_levels) {
    std::vector<std::size_t> order(run_levels.size());
    std::iota(order.begin(), order.end(), 0);
    if (run_levels.empty()) return order;
    const auto [lowest, highest] = std::minmax_element(run_levels.begin(), run_levels.end());
    const int lowest_odd = *lowest | 1;
    for (int level = *highest; level >= lowest_odd; --level) {
        for (std::size_t i = 0; i < order.size();) {
            if (run_levels[order[i]] < level) {
                ++i;
                continue;
            }
            std::size_t end = i;
            while (end < order.size() && run_levels[order[end]] >= level) ++end;
            std::reverse(order.begin() + static_cast<std::ptrdiff_t>(i),
                         order.begin() + static_cast<std::ptrdiff_t>(end));
            i = end;
        }
    }
    return order;
}

}  // namespace render
