// Fallback files by name: NotoSans<Script>-<Weight>.ttf and NotoSansCJK-<Weight>.ttc, the weight
// matched to Inter's 400, 500 and 600 by distance (lighter first up to 500, heavier above, as CSS
// matches weights). fonts-noto-core and fonts-noto-cjk ship Regular and Bold only, so medium
// text falls back to Regular and semibold to Bold.
#include "render/draw/font_fallback.hpp"

#include <algorithm>
#include <filesystem>
#include <utility>

#include "story/text/lang.hpp"

namespace render {
namespace {

struct Table {
    const char* name;
    const char* prefix;
    const char* extension;
    std::vector<hb_script_t> scripts;
};

const std::vector<Table>& table() {
    static const std::vector<Table> rows = {
        {"Arabic", "NotoSansArabic-", ".ttf", {HB_SCRIPT_ARABIC}},
        {"Hebrew", "NotoSansHebrew-", ".ttf", {HB_SCRIPT_HEBREW}},
        {"Devanagari", "NotoSansDevanagari-", ".ttf", {HB_SCRIPT_DEVANAGARI}},
        {"CJK",
         "NotoSansCJK-",
         ".ttc",
         {HB_SCRIPT_HAN, HB_SCRIPT_HIRAGANA, HB_SCRIPT_KATAKANA, HB_SCRIPT_HANGUL,
          HB_SCRIPT_BOPOMOFO}},
    };
    return rows;
}

constexpr std::array<std::pair<const char*, int>, 9> weight_names = {{{"Thin", 100},
                                                                      {"ExtraLight", 200},
                                                                      {"Light", 300},
                                                                      {"Regular", 400},
                                                                      {"Medium", 500},
                                                                      {"SemiBold", 600},
                                                                      {"Bold", 700},
                                                                      {"ExtraBold", 800},
                                                                      {"Black", 900}}};
constexpr std::array<int, 3> inter_weights = {400, 500, 600};

// The row's files in the first directory that has any, with their weights.
std::vector<std::pair<int, std::string>> files_of(const Table& row,
                                                  const std::vector<std::string>& dirs) {
    for (const std::string& dir : dirs) {
        std::vector<std::pair<int, std::string>> found;
        for (const auto& [name, weight] : weight_names) {
            const auto path =
                std::filesystem::path(dir) / (std::string(row.prefix) + name + row.extension);
            std::error_code ec;
            if (std::filesystem::is_regular_file(path, ec)) found.emplace_back(weight, path);
        }
        if (!found.empty()) return found;
    }
    return {};
}

const std::string& nearest(const std::vector<std::pair<int, std::string>>& files, int weight) {
    const auto rank = [weight](int w) {
        const bool wrong_side = weight <= 500 ? w > weight : w < weight;
        return std::pair(std::abs(w - weight), wrong_side);
    };
    return std::min_element(
               files.begin(), files.end(),
               [&](const auto& a, const auto& b) { return rank(a.first) < rank(b.first); })
        ->second;
}

}  // namespace

std::vector<std::string> noto_dirs() {
    return {"/usr/share/fonts/truetype/noto", "/usr/share/fonts/opentype/noto"};
}

std::vector<Fallback> find_fallbacks(const std::vector<std::string>& dirs) {
    std::vector<Fallback> out;
    for (const Table& row : table()) {
        Fallback f{row.name, row.scripts, {}, std::string_view(row.extension) == ".ttc"};
        const auto files = files_of(row, dirs);
        if (!files.empty())
            for (std::size_t w = 0; w < inter_weights.size(); ++w)
                f.files[w] = nearest(files, inter_weights[w]);
        out.push_back(std::move(f));
    }
    return out;
}

std::string cjk_family(std::string_view lang) {
    const story::LangTag tag = story::parse_lang(lang);
    std::string region = tag.language == "ko" ? "KR" : "JP";
    if (tag.language == "zh") {
        const bool traditional = tag.script == "hant" || tag.region == "tw" || tag.region == "mo";
        region = tag.region == "hk" ? "HK" : traditional ? "TC" : "SC";
    }
    return "Noto Sans CJK " + region;
}

const std::vector<std::string>& cjk_families() {
    static const std::vector<std::string> families = {"Noto Sans CJK JP", "Noto Sans CJK KR",
                                                      "Noto Sans CJK SC", "Noto Sans CJK TC",
                                                      "Noto Sans CJK HK"};
    return families;
}

}  // namespace render
