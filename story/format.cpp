// Number formatting for everything drawn on screen.
#include "story/format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace story {

namespace {

std::string group_thousands(const std::string& digits) {
    // digits: optional '-', integer part, optional fraction
    std::size_t start = digits[0] == '-' ? 1 : 0;
    std::size_t dot = digits.find('.');
    std::size_t int_end = dot == std::string::npos ? digits.size() : dot;
    std::string out = digits.substr(0, start);
    for (std::size_t i = start; i < int_end; ++i) {
        out += digits[i];
        const std::size_t left = int_end - i - 1;
        if (left > 0 && left % 3 == 0) out += ',';
    }
    return out + digits.substr(int_end);
}

std::string with_unit(const std::string& number, const char* unit) {
    return number + kThinSpace + unit;
}

// v rounded to 3 significant figures.
double round_sig3(double v) {
    if (v == 0 || !std::isfinite(v)) return 0;
    const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(v))));
    const double step = std::pow(10.0, magnitude - 2);
    return std::round(v / step) * step;
}

}  // namespace

std::string format_sig3(double v) {
    if (v == 0 || !std::isfinite(v)) return "0";
    const double rounded = round_sig3(v);
    const int decimals =
        std::max(0, 2 - static_cast<int>(std::floor(std::log10(std::fabs(rounded)))));
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, rounded);
    std::string text = buf;
    // Trailing zeros carry no information on screen: "16 B", not "16.0 B".
    if (text.find('.') != std::string::npos) {
        text.erase(text.find_last_not_of('0') + 1);
        if (text.back() == '.') text.pop_back();
    }
    return group_thousands(text);
}

std::string format_bytes(double bytes) {
    if (bytes == 0) return with_unit("0", "B");
    if (round_sig3(bytes / 1e3) < 1000) return with_unit(format_sig3(bytes / 1e3), "kB");
    if (round_sig3(bytes / 1e6) < 1000) return with_unit(format_sig3(bytes / 1e6), "MB");
    return with_unit(format_sig3(bytes / 1e9), "GB");
}

std::string format_bytes_per_param(double b) { return with_unit(format_sig3(b), "B"); }

std::string format_time(double s) {
    if (s == 0) return with_unit("0", "s");
    // Choose the unit after rounding, so 0.9996 s reads "1 s", not "1,000 ms".
    if (round_sig3(s * 1e6) < 1000) return with_unit(format_sig3(s * 1e6), "µs");
    if (round_sig3(s * 1e3) < 1000) return with_unit(format_sig3(s * 1e3), "ms");
    return with_unit(format_sig3(s), "s");
}

std::string format_bandwidth(double bytes_per_s) {
    return with_unit(format_sig3(bytes_per_s / 1e9), "GB/s");
}

std::string format_percent(double fraction) { return format_sig3(fraction * 100) + "%"; }

std::string format_params(double n) {
    if (n >= 1e12) return format_sig3(n / 1e12) + "T";
    if (n >= 1e9) return format_sig3(n / 1e9) + "B";
    if (n >= 1e6) return format_sig3(n / 1e6) + "M";
    return format_sig3(n);
}

std::string format_int(long long v) { return group_thousands(std::to_string(v)); }

std::string format_timecode(double seconds, char decimal_sep) {
    const long long ms = std::llround(seconds * 1000);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%02lld:%02lld:%02lld%c%03lld", ms / 3600000, ms / 60000 % 60,
                  ms / 1000 % 60, decimal_sep, ms % 1000);
    return buf;
}

std::string fraction_text(long long num, long long den) {
    return std::to_string(num) + "/" + std::to_string(den);
}

}  // namespace story
