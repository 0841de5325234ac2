// Writing direction of a language (minimal: the text layer's story/lang.hpp supersedes it).
#pragma once
#include <string_view>

namespace story {

// Whether `lang` (a BCP-47 tag) is written right to left: Arabic, Hebrew, Persian, Urdu.
bool is_rtl(std::string_view lang);

}  // namespace story
