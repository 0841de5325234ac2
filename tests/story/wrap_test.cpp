// Word wrapping for the caption band and subtitles: greedy by measured advance, and balanced so
// that centred text never ends in one stray word.
#include <algorithm>
#include <catch2/catch.hpp>
#include <numeric>

#include "story/layout.hpp"
#include "story/text_metrics.hpp"

using namespace story;

namespace {

const ApproxTextMetrics kMetrics;
const TextStyle kCaption{frame::kBodySize, Weight::regular, false};

std::string joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const std::string& l : lines) out += (out.empty() ? "" : " ") + l;
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
    CHECK(wrap_text(kMetrics, "unbreakable", kCaption, 10) ==
          std::vector<std::string>{"unbreakable"});
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
