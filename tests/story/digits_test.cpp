// One digit system per film (issue 33, item 10): where the film's numbers are drawn in
// Arabic-Indic digits (ar), its titles and lines write their numbers so too. A number standing
// alone is a quantity ("٨٠ GB", "المرحلة ٢"); digits inside a name stay as the name is written
// (H100, fp8, ZeRO-3, 1F1B, 7B, Llama 3.1).
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "chapter_fixture.hpp"
#include "story/text/format.hpp"
#include "tests/catch.hpp"

namespace fs = std::filesystem;
using namespace story;

namespace {

// Latin digits standing alone: not touching a Latin letter, a digit, '-', '_' or a '.' before.
std::vector<std::string> latin_numbers(const std::string& text) {
    static const std::regex number(
        R"((^|[^A-Za-z0-9._\-])([0-9]+([,.][0-9]+)*)(?![A-Za-z0-9_\-]))");
    std::vector<std::string> out;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), number);
         it != std::sregex_iterator(); ++it)
        out.push_back((*it)[2]);
    return out;
}

// Model names whose version stands apart from the name, written as their makers write them.
std::string without_names(std::string text) {
    for (const std::string name : {"Llama 3.1", "Llama 3"})
        for (size_t at; (at = text.find(name)) != std::string::npos;) text.erase(at, name.size());
    return text;
}

std::vector<fs::path> boards() {
    std::vector<fs::path> out;
    for (const char* dir : {"storyboards", "tests/storyboards/good"})
        for (const auto& e : fs::directory_iterator(fs::path(SHARDREEL_SOURCE_DIR) / dir))
            if (e.path().extension() == ".yaml") out.push_back(e.path());
    return out;
}

}  // namespace

TEST_CASE("digits: a number standing alone is found, a name's digits are not", "[languages]") {
    CHECK(latin_numbers("ذاكرة 80 GB") == std::vector<std::string>{"80"});
    CHECK(latin_numbers("إلى 1,120 GB و8") == std::vector<std::string>{"1,120", "8"});
    CHECK(latin_numbers("H100 و fp8 و ZeRO-3 و 1F1B و 7B").empty());
    CHECK(latin_numbers("ذاكرة ٨٠ GB").empty());
    CHECK(latin_numbers(without_names("حصة Llama 3.1 405B و Llama 3")).empty());
}

TEST_CASE("digits: an Arabic film writes every number of its titles and lines in its digits",
          "[languages]") {
    REQUIRE(format_count(80, Locale("ar")) == "٨٠");  // what its pictures draw
    int lines = 0;
    for (const fs::path& file : boards()) {
        const Storyboard any = chapter_test::load_file(file.string());
        if (std::find(any.languages.begin(), any.languages.end(), "ar") == any.languages.end())
            continue;
        Diagnostics diags;
        std::vector<Diagnostic> warnings;
        const auto board = load_timed(chapter_test::slurp(file.string()), file.string(), diags,
                                      warnings, {}, "ar");
        REQUIRE(board);
        for (const ChapterSpec& c : board->chapters) {
            std::vector<std::string> texts{c.title, c.subtitle};
            for (const Beat& b : c.beats) texts.push_back(b.say);
            for (const std::string& text : texts) {
                INFO(file.filename().string() << ", " << c.id << ": " << text);
                CHECK(latin_numbers(without_names(text)).empty());
                ++lines;
            }
        }
    }
    CHECK(lines > 100);
}
