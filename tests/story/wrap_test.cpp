// Word wrapping for the caption band and subtitles: greedy by measured advance, and balanced so
// that centred text never ends in one stray word; lines break where ICU allows in the text's
// language (between Japanese characters, at spaces elsewhere), and a word too long for any line
// is cut.
#include <algorithm>
#include <numeric>
#include <tuple>

#include "story/scene/layout.hpp"
#include "story/scene/text_metrics.hpp"
#include "story/text/line_breaks.hpp"
#include "tests/catch.hpp"

using namespace story;

namespace {

const ApproxTextMetrics kMetrics;
const TextStyle kCaption{frame::kBodySize, Weight::regular, false};

std::string joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const std::string& l : lines) out += (out.empty() ? "" : " ") + l;
    return out;
}

TextStyle caption_in(std::string lang) {
    TextStyle style = kCaption;
    style.lang = std::move(lang);
    return style;
}

double widest(const std::vector<std::string>& lines, const TextStyle& style) {
    double w = 0;
    for (const std::string& l : lines) w = std::max(w, kMetrics.measure(l, style).advance);
    return w;
}

// The lines put back together: a cut word's hyphen dropped, lines joined with `separator`.
std::string rejoined(const std::vector<std::string>& lines, const std::string& separator) {
    std::string out;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        out += lines[i];
        if (i + 1 == lines.size()) break;
        if (out.back() == '-')
            out.pop_back();
        else
            out += separator;
    }
    return out;
}

std::pair<double, double> narrowest_widest(const std::vector<std::string>& lines) {
    double lo = 1e9, hi = 0;
    for (const std::string& l : lines) {
        const double w = kMetrics.measure(l, kCaption).advance;
        lo = std::min(lo, w), hi = std::max(hi, w);
    }
    return {lo, hi};
}

}  // namespace

TEST_CASE("greedy wrap fills each line up to the width") {
    const auto lines = wrap_text(kMetrics, "one two three four five six", kCaption, 200);
    REQUIRE(lines.size() >= 2);
    CHECK(joined(lines) == "one two three four five six");
    for (const std::string& l : lines) CHECK(kMetrics.measure(l, kCaption).advance <= 200);
    CHECK(wrap_text(kMetrics, "", kCaption, 200).empty());
    CHECK(wrap_text(kMetrics, "  spaces\tand\nnewlines  ", kCaption, 1000) ==
          std::vector<std::string>{"spaces and newlines"});
}

TEST_CASE("balanced wrap keeps the line count and evens the lines out") {
    const std::string text =
        "Stage 3 splits the weights too, so nothing is stored twice and memory falls as one over "
        "the "
        "card count.";
    const double width = 1608;
    const auto greedy = wrap_text(kMetrics, text, kCaption, width);
    const auto balanced = wrap_balanced(kMetrics, text, kCaption, width);
    REQUIRE(greedy.size() == 2);
    CHECK(balanced.size() == greedy.size());
    CHECK(joined(balanced) == text);
    const auto [g_lo, g_hi] = narrowest_widest(greedy);
    const auto [b_lo, b_hi] = narrowest_widest(balanced);
    CHECK(b_hi <= width);
    CHECK(b_hi - b_lo < (g_hi - g_lo) / 4);  // greedy leaves "card count." nearly alone
    // One line stays one line, untouched.
    CHECK(wrap_balanced(kMetrics, "short", kCaption, width) == std::vector<std::string>{"short"});
}

TEST_CASE("Japanese breaks between characters, never before closing punctuation") {
    const std::string text = "各GPUは重みの一部だけを保持し、勾配を足し合わせます。";
    const TextStyle style = caption_in("ja");
    const double width = 8.5 * 0.55 * style.size;  // eight characters of the approximation
    const auto lines = wrap_text(kMetrics, text, style, width);
    REQUIRE(lines.size() >= 3);
    CHECK(rejoined(lines, "") == text);
    CHECK(widest(lines, style) <= width);
    for (const std::string& l : lines) {
        CHECK(l.rfind("、", 0) != 0);
        CHECK(l.rfind("。", 0) != 0);
    }
}

TEST_CASE("Hindi and Arabic break at spaces only") {
    for (const auto& [text, lang] : std::vector<std::pair<std::string, std::string>>{
             {"हर कार्ड भार की एक प्रति रखता है और ग्रेडिएंट जोड़ता है", "hi"},
             {"كل بطاقة تحمل نسخة من الأوزان وتجمع التدرجات", "ar"}}) {
        const TextStyle style = caption_in(lang);
        const auto lines = wrap_text(kMetrics, text, style, 300);
        REQUIRE(lines.size() >= 2);
        CHECK(joined(lines) == text);  // whole words, one space between them
        CHECK(widest(lines, style) <= 300);
    }
}

TEST_CASE("a word too long for any line is cut between graphemes, with a hyphen in Latin script") {
    const std::string text = "Der Kommunikationsaufwand wächst mit jeder Karte";
    const TextStyle style = caption_in("de");
    const double width = 12.5 * 0.55 * style.size;  // "Kommunikationsaufwand" has 21 letters
    const auto lines = wrap_text(kMetrics, text, style, width);
    CHECK(widest(lines, style) <= width);
    CHECK(rejoined(lines, " ") == text);
    CHECK(std::count_if(lines.begin(), lines.end(),
                        [](const std::string& l) { return l.back() == '-'; }) == 1);
    // At least one grapheme a line, however narrow: never an empty line, never a loop.
    const auto narrow = wrap_text(kMetrics, "unbreakable", kCaption, 10);
    CHECK(narrow.size() == 11);
    CHECK(narrow.front() == "u-");
    CHECK(narrow.back() == "e");
}

TEST_CASE("a cut Devanagari word keeps its vowel signs and takes no hyphen") {
    const std::string word = "अंतर्राष्ट्रीयकरण";  // internationalisation
    const TextStyle style = caption_in("hi");
    const auto lines = wrap_text(kMetrics, word, style, 3.5 * 0.55 * style.size);
    REQUIRE(lines.size() >= 3);
    CHECK(rejoined(lines, "") == word);
    for (const std::string& l : lines) {
        CHECK(l.back() != '-');
        for (const char* sign : {"\u093F", "\u0940", "\u094D", "\u0902"})  // ि ी ् ं
            CHECK(l.rfind(sign, 0) != 0);
    }
}

TEST_CASE("hyphenated compounds stay whole, as English always wrapped") {
    const double width = kMetrics.measure("Then an all-", kCaption).advance + 1;
    const auto lines = wrap_text(kMetrics, "Then an all-reduce", kCaption, width);
    CHECK(lines == std::vector<std::string>{"Then an", "all-reduce"});
}

TEST_CASE("a count stays with what it counts in any digits") {
    for (const auto& [lang, text, counted] :
         std::vector<std::tuple<std::string, std::string, std::string>>{
             {"de", "Das Modell läuft auf 8 GPUs", "8 GPUs"},
             {"en", "the weights need 1,120.5 GB", "1,120.5 GB"},
             {"ar", "تعمل على ٨ وحدات", "٨ وحدات"},
             {"ar", "تحتاج ١٬١٢٠٫٥ GB", "١٬١٢٠٫٥ GB"}}) {
        const TextStyle style = caption_in(lang);
        // As wide as the text up to and with the count: a plain greedy wrap ends a line there.
        const std::string upto =
            text.substr(0, text.size() - counted.size()) + counted.substr(0, counted.find(' '));
        const auto lines =
            wrap_text(kMetrics, text, style, kMetrics.measure(upto, style).advance + 1);
        INFO(lang << ": " << text);
        REQUIRE(lines.size() == 2);
        CHECK(lines[1] == counted);
    }
    CHECK_FALSE(ends_in_number("GPU 3a "));
    CHECK_FALSE(ends_in_number(". "));
    CHECK(ends_in_number("auf 8 "));
}
