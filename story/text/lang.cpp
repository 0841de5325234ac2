// Language tags: just enough of BCP-47 to read the language, script and region subtags.
#include "story/text/lang.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace story {

namespace {

bool all_of(const std::string& s, int (*is)(int)) {
    return std::all_of(s.begin(), s.end(), [is](unsigned char c) { return is(c) != 0; });
}

}  // namespace

LangTag parse_lang(std::string_view lang) {
    LangTag tag;
    std::size_t start = 0;
    for (int index = 0; start <= lang.size(); ++index) {
        const std::size_t end = std::min(lang.find_first_of("-_", start), lang.size());
        std::string subtag(lang.substr(start, end - start));
        std::transform(subtag.begin(), subtag.end(), subtag.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        start = end + 1;
        if (index == 0) {
            tag.language = std::move(subtag);
        } else if (subtag.size() == 4 && all_of(subtag, std::isalpha) && tag.script.empty() &&
                   tag.region.empty()) {
            tag.script = std::move(subtag);
        } else if (((subtag.size() == 2 && all_of(subtag, std::isalpha)) ||
                    (subtag.size() == 3 && all_of(subtag, std::isdigit))) &&
                   tag.region.empty()) {
            tag.region = std::move(subtag);
        }
    }
    return tag;
}

bool is_rtl(std::string_view lang) {
    constexpr std::array<std::string_view, 7> rtl_languages = {"ar", "fa", "he", "iw",
                                                               "ps", "ur", "yi"};
    const LangTag tag = parse_lang(lang);
    if (!tag.script.empty()) return tag.script == "arab" || tag.script == "hebr";
    return std::find(rtl_languages.begin(), rtl_languages.end(), tag.language) !=
           rtl_languages.end();
}

std::string list_separator(std::string_view sep, std::string_view lang) {
    if (!is_rtl(lang)) return std::string(sep);
    constexpr std::string_view rlm = "\u200F";
    return std::string(rlm).append(sep).append(rlm);
}

std::size_t code_points(std::string_view utf8) {
    std::size_t n = 0;
    for (unsigned char c : utf8) n += (c & 0xC0) != 0x80;  // not a continuation byte
    return n;
}

}  // namespace story
