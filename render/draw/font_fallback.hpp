// The Noto faces for the scripts Inter lacks, found by name where Debian's fonts-noto-core and
// fonts-noto-cjk install them. Only file names are looked at here; face_table.cpp loads them.
#pragma once
#include <hb.h>

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace render {

// /usr/share/fonts/truetype/noto (fonts-noto-core), /usr/share/fonts/opentype/noto
// (fonts-noto-cjk).
std::vector<std::string> noto_dirs();

struct Fallback {
    std::string name;                  // "Arabic", "Hebrew", "Devanagari", "CJK"
    std::vector<hb_script_t> scripts;  // the scripts it draws
    // Its file for each of Inter's weights (regular, medium, semibold): the weight nearest to
    // Inter's that the first directory holding any of its files offers; all empty when none does.
    std::array<std::string, 3> files;
    bool collection = false;  // a .ttc of regional faces, one picked by language (cjk_family)
};

// Every fallback, in the order they are tried for a character of no script of theirs.
std::vector<Fallback> find_fallbacks(const std::vector<std::string>& dirs);

// The face of Noto Sans CJK for text in lang: "Noto Sans CJK SC" for Chinese, TC for
// traditional Chinese (zh-Hant, zh-TW, zh-MO), HK for zh-HK, KR for Korean, JP for Japanese and
// for any other or unknown language.
std::string cjk_family(std::string_view lang);
// The regional families cjk_family may return.
const std::vector<std::string>& cjk_families();

}  // namespace render
