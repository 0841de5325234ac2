// The ICU locale numbers are written in for a BCP-47 tag (numbers.cpp's formats and the
// calculator page's numbering system agree through it).
#pragma once
#include <unicode/locid.h>

#include <string_view>

namespace story {

// tag: a BCP-47 tag; std::invalid_argument if it is not one. Arabic without a region or a
// "-u-nu-" keyword is pinned to Arabic-Indic digits (numbering.cpp says why).
icu::Locale number_locale(std::string_view tag);

}  // namespace story
