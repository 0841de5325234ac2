// English numbers without ICU; see plain_numbers.hpp.
#include "story/text/plain_numbers.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace story {
namespace {

// "1234567" -> "1,234,567" (digits only, no sign).
std::string grouped(const std::string& digits) {
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

}  // namespace

double round_sig3(double v) {
    if (v == 0 || !std::isfinite(v)) return 0;
    const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(v))));
    const double step = std::pow(10.0, magnitude - 2);
    return std::round(v / step) * step;
}

ScaledBytes scale_bytes(double bytes) {
    if (bytes == 0) return {0, "B"};
    if (round_sig3(bytes / 1e3) < 1000) return {bytes / 1e3, "kB"};
    if (round_sig3(bytes / 1e6) < 1000) return {bytes / 1e6, "MB"};
    return {bytes / 1e9, "GB"};
}

std::string plain_sig3(double v) {
    const double r = round_sig3(v);
    if (r == 0) return "0";
    const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(r))));
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", std::max(0, 2 - magnitude), std::fabs(r));
    std::string number = text;
    if (number.find('.') != std::string::npos) {
        number.erase(number.find_last_not_of('0') + 1);
        if (number.back() == '.') number.pop_back();
    }
    const std::size_t dot = std::min(number.find('.'), number.size());
    return (r < 0 ? "-" : "") + grouped(number.substr(0, dot)) + number.substr(dot);
}

std::string plain_int(long long v) {
    const std::string digits = std::to_string(v < 0 ? -(unsigned long long)v : v);
    return (v < 0 ? "-" : "") + grouped(digits);
}

std::string plain_bytes(double bytes) {
    const ScaledBytes s = scale_bytes(bytes);
    return (bytes == 0 ? std::string("0") : plain_sig3(s.value)) + "\u2009" + s.unit;
}

}  // namespace story
