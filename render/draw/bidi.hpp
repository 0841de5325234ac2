// The Unicode bidirectional algorithm (FriBidi) over one line of text: which characters run right
// to left, and in which order runs of them are laid out.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace render {

struct BidiLine {
    std::vector<std::uint32_t> chars;  // code points (malformed UTF-8 as U+FFFD)
    std::vector<std::size_t> offsets;  // byte offset of each in the text, then the text's size
    std::vector<std::uint8_t> levels;  // resolved embedding level of each: odd is right to left
    bool rtl = false;                  // the paragraph's direction
};

// The line's levels. The paragraph runs right to left when lang is an RTL language
// (story::is_rtl), else as its first strong letter does (left to right when it has none). Text
// with no right-to-left character in a left-to-right paragraph is all level 0 without FriBidi.
BidiLine bidi_line(std::string_view utf8, std::string_view lang);

// Whether c can take text off level 0 in a left-to-right paragraph: a right-to-left letter, an
// Arabic digit, an explicit embedding or isolate.
bool may_run_rtl(std::uint32_t c);

// Indices of runs, given their levels in text order, in the order they are laid out from left to
// right (rule L2: reverse every sequence at each level or above, from the highest level down to
// the lowest odd one).
std::vector<std::size_t> visual_order(const std::vector<std::uint8_t>& run_levels);

}  // namespace render
