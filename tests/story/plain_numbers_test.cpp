// English numbers without ICU (story/text/plain_numbers.hpp), which the browser's calculator
// module writes plan's shortfall message with: the same text as ICU's English for every size.
#include "story/text/plain_numbers.hpp"

#include <cmath>
#include <random>
#include <string>

#include "story/text/format.hpp"
#include "tests/catch.hpp"

using namespace story;

namespace {
const std::string kThin = "\u2009";
}  // namespace

TEST_CASE("plain numbers: three significant figures, commas between thousands", "[plain]") {
    CHECK(plain_bytes(84.6e9) == "84.6" + kThin + "GB");
    CHECK(plain_bytes(1.12e12) == "1,120" + kThin + "GB");
    CHECK(plain_bytes(80e9) == "80" + kThin + "GB");
    CHECK(plain_bytes(355.4e9) == "355" + kThin + "GB");
    CHECK(plain_bytes(999.6e6) == "1" + kThin + "GB");  // the unit chosen after rounding
    CHECK(plain_bytes(500) == "0.5" + kThin + "kB");
    CHECK(plain_bytes(0) == "0" + kThin + "B");
    CHECK(plain_sig3(0.000123456) == "0.000123");
    CHECK(plain_sig3(-1234.5) == "-1,230");
    CHECK(plain_sig3(1e15) == "1,000,000,000,000,000");
    CHECK(plain_int(16384) == "16,384");
    CHECK(plain_int(-1000) == "-1,000");
    CHECK(plain_int(999) == "999");
}

TEST_CASE("plain numbers equal ICU's English for 20,000 sizes from 1 B to 100 PB", "[plain]") {
    std::mt19937_64 random(34);
    std::uniform_real_distribution<double> exponent(0, 17);
    int differ = 0;
    for (int i = 0; i < 20000; ++i) {
        const double bytes = std::pow(10.0, exponent(random));
        const double whole = std::floor(bytes);  // the engine's sizes are often whole numbers
        if (plain_bytes(bytes) != format_bytes(bytes)) ++differ;
        if (plain_bytes(whole) != format_bytes(whole)) ++differ;
        if (plain_sig3(bytes / 7) != format_sig3(bytes / 7)) ++differ;
        if (plain_int((long long)whole) != format_int((long long)whole)) ++differ;
    }
    CHECK(differ == 0);
    for (double b : {999.5, 999.49, 9.995e8, 1e9, 123456789.0, 5e-7})
        CHECK(plain_bytes(b) == format_bytes(b));
}
