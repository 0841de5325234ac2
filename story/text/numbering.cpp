// The numbering system of a language; see numbering.hpp.
#include "story/text/numbering.hpp"

#include <unicode/locid.h>
#include <unicode/numsys.h>

#include <memory>
#include <stdexcept>

namespace story {

std::string numbering_system(std::string_view tag) {
    UErrorCode status = U_ZERO_ERROR;
    const icu::Locale locale =
        icu::Locale::forLanguageTag(icu::StringPiece(tag.data(), tag.size()), status);
    if (U_FAILURE(status))
        throw std::invalid_argument("not a BCP-47 language tag: " + std::string(tag));
    const std::unique_ptr<icu::NumberingSystem> ns(
        icu::NumberingSystem::createInstance(locale, status));
    if (U_FAILURE(status)) throw std::runtime_error(u_errorName(status));
    return ns->getName();
}

}  // namespace story
