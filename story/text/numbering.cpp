// The numbering system of a language; see numbering.hpp.
#include "story/text/numbering.hpp"

#include <unicode/locid.h>
#include <unicode/numsys.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "story/text/icu_locale.hpp"

namespace story {

icu::Locale number_locale(std::string_view tag) {
    UErrorCode status = U_ZERO_ERROR;
    icu::Locale locale =
        icu::Locale::forLanguageTag(icu::StringPiece(tag.data(), tag.size()), status);
    if (U_FAILURE(status))
        throw std::invalid_argument("not a BCP-47 language tag: " + std::string(tag));
    // Arabic without a region writes Arabic-Indic digits, as the films' captions do: Debian 13's
    // ICU 76 writes Latin digits for "ar" by default, where Debian 12's ICU 72 wrote "٧٠". A
    // region ("ar-MA") or a "-u-nu-" keyword keeps its own.
    if (std::string_view(locale.getLanguage()) == "ar" && locale.getCountry()[0] == '\0') {
        UErrorCode none = U_ZERO_ERROR;
        if (locale.getUnicodeKeywordValue<std::string>("nu", none).empty() || U_FAILURE(none)) {
            UErrorCode set = U_ZERO_ERROR;
            locale.setUnicodeKeywordValue("nu", "arab", set);
        }
    }
    return locale;
}

std::string numbering_system(std::string_view tag) {
    UErrorCode status = U_ZERO_ERROR;
    const std::unique_ptr<icu::NumberingSystem> ns(
        icu::NumberingSystem::createInstance(number_locale(tag), status));
    if (U_FAILURE(status)) throw std::runtime_error(u_errorName(status));
    return ns->getName();
}

}  // namespace story
