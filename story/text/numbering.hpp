// The numbering system ICU writes a language's numbers in ("latn", "arab", "deva", ...), for a
// page that formats them itself (the calculator's script asks the browser's Intl.NumberFormat for
// the same system, so its digits are the film's and the article page's).
#pragma once
#include <string>
#include <string_view>

namespace story {

// tag: a BCP-47 tag; std::invalid_argument if it is not one.
std::string numbering_system(std::string_view tag);

}  // namespace story
