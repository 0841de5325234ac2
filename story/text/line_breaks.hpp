// Where a line of text may break, from ICU (the Unicode line breaking algorithm, UAX #14, as the
// language tailors it): after spaces and hyphens in most languages, between characters in
// Chinese and Japanese; and grapheme clusters, for cutting a word too long for any line.
#pragma once
#include <string_view>
#include <vector>

namespace story {

// The text cut after every line-break opportunity; each piece keeps the spaces after it.
std::vector<std::string_view> line_pieces(std::string_view text, std::string_view lang);
// The text cut between grapheme clusters (what a reader takes for one character: a letter with
// its accents, a Devanagari consonant with its vowel sign).
std::vector<std::string_view> graphemes(std::string_view text);
// Whether a piece of line_pieces ends in a number (its last word, spaces aside, all digits of any
// script and the separators between them, ".,'" and Arabic's ٫ ٬): a line should not end there,
// which would part a count from what it counts ("8" at one line's end, "GPUs" on the next).
bool ends_in_number(std::string_view piece);
// Whether a word cut at a line's end takes a hyphen: its first letter is Latin, Greek or
// Cyrillic (scripts that hyphenate; Chinese, Japanese, Thai and most others do not).
bool hyphenates(std::string_view word);

}  // namespace story
