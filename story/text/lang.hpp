// A film's language (issue 18), as the BCP-47 tag a storyboard writes ("ar", "ja", "zh-Hant-TW"):
// its subtags, and which way its text runs. The one place that decides it, for layout and the
// text layer alike.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace story {

// The subtags that matter for drawing text, lower-cased; "-" and "_" both separate subtags.
struct LangTag {
    std::string language;  // "zh"
    std::string script;    // "hant": four letters, when given
    std::string region;    // "tw": two letters or three digits, when given
};
LangTag parse_lang(std::string_view lang);

// Whether text in lang runs right to left: Arabic, Persian, Urdu, Pashto, Hebrew and Yiddish
// (ar, fa, ur, ps, he or its old code iw, yi), or any tag whose script subtag is Arabic or Hebrew
// ("az-Arab"); another script subtag makes it left to right ("ur-Latn"). "" (unknown) is false.
bool is_rtl(std::string_view lang);

// sep as it stands between two items of a list in lang's text. In a right-to-left paragraph each
// item stays a unit: sep is wrapped in right-to-left marks (U+200F), so the bidi algorithm does
// not join two Latin neighbours across it into one left-to-right run ("GPU · tp ٤" had read
// "tp · GPU", the ٤ cut off: Arabic-Indic digits end a Latin run). Elsewhere sep itself.
std::string list_separator(std::string_view sep, std::string_view lang);

// The characters a reader sees in UTF-8 text: its code points, not its bytes.
std::size_t code_points(std::string_view utf8);

}  // namespace story
