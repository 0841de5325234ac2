// ICU break iterators over UTF-8 through UText, so boundaries come as byte offsets. Iterators
// are costly to build and not thread-safe, so each thread keeps one per language.
#include "story/text/line_breaks.hpp"

#include <unicode/brkiter.h>
#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/utext.h>
#include <unicode/utf8.h>

#include <map>
#include <memory>
#include <stdexcept>
#include <string>

namespace story {
namespace {

using Iterator = std::unique_ptr<icu::BreakIterator>;

void check(UErrorCode status, const char* what) {
    if (U_FAILURE(status))
        throw std::runtime_error(std::string("ICU cannot ") + what + ": " + u_errorName(status));
}

// The locale of a BCP-47 tag; the root locale (untailored rules) for "" or a malformed tag.
icu::Locale locale_of(std::string_view lang) {
    UErrorCode status = U_ZERO_ERROR;
    const icu::Locale locale =
        icu::Locale::forLanguageTag(icu::StringPiece(lang.data(), lang.size()), status);
    return U_FAILURE(status) || lang.empty() ? icu::Locale::getRoot() : locale;
}

icu::BreakIterator& line_iterator(std::string_view lang) {
    thread_local std::map<std::string, Iterator, std::less<>> iterators;
    auto it = iterators.find(lang);
    if (it == iterators.end()) {
        UErrorCode status = U_ZERO_ERROR;
        Iterator made(icu::BreakIterator::createLineInstance(locale_of(lang), status));
        check(status, "break lines");
        it = iterators.emplace(std::string(lang), std::move(made)).first;
    }
    return *it->second;
}

icu::BreakIterator& grapheme_iterator() {
    thread_local const Iterator iterator = [] {
        UErrorCode status = U_ZERO_ERROR;
        Iterator made(icu::BreakIterator::createCharacterInstance(icu::Locale::getRoot(), status));
        check(status, "find grapheme clusters");
        return made;
    }();
    return *iterator;
}

std::vector<std::string_view> pieces(icu::BreakIterator& breaks, std::string_view text) {
    UErrorCode status = U_ZERO_ERROR;
    UText* utext =
        utext_openUTF8(nullptr, text.data(), static_cast<std::int64_t>(text.size()), &status);
    check(status, "read UTF-8");
    breaks.setText(utext, status);  // keeps its own shallow clone of utext
    utext_close(utext);
    check(status, "break text");
    std::vector<std::string_view> out;
    std::int32_t start = breaks.first();
    for (std::int32_t end = breaks.next(); end != icu::BreakIterator::DONE;
         start = end, end = breaks.next())
        out.push_back(
            text.substr(static_cast<std::size_t>(start), static_cast<std::size_t>(end - start)));
    return out;
}

}  // namespace

std::vector<std::string_view> line_pieces(std::string_view text, std::string_view lang) {
    return pieces(line_iterator(lang), text);
}

std::vector<std::string_view> graphemes(std::string_view text) {
    return pieces(grapheme_iterator(), text);
}

bool ends_in_number(std::string_view piece) {
    const std::size_t end = piece.find_last_not_of(' ');
    if (end == std::string_view::npos) return false;
    const std::size_t space = piece.find_last_of(' ', end);
    const std::size_t begin = space == std::string_view::npos ? 0 : space + 1;
    const std::string_view word = piece.substr(begin, end + 1 - begin);
    const auto size = static_cast<std::int32_t>(word.size());
    bool digit = false;
    for (std::int32_t i = 0; i < size;) {
        UChar32 c = 0;
        U8_NEXT(word.data(), i, size, c);
        if (u_isdigit(c))
            digit = true;
        else if (c != '.' && c != ',' && c != '\'' && c != U'\u066B' && c != U'\u066C')
            return false;
    }
    return digit;
}

bool hyphenates(std::string_view word) {
    const auto size = static_cast<std::int32_t>(word.size());
    for (std::int32_t i = 0; i < size;) {
        UChar32 c = 0;
        U8_NEXT(word.data(), i, size, c);
        if (c < 0) continue;  // malformed UTF-8
        UErrorCode status = U_ZERO_ERROR;
        const UScriptCode script = uscript_getScript(c, &status);
        if (script == USCRIPT_COMMON || script == USCRIPT_INHERITED) continue;
        return script == USCRIPT_LATIN || script == USCRIPT_GREEK || script == USCRIPT_CYRILLIC;
    }
    return false;
}

}  // namespace story
