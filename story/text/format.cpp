// Number formatting for everything drawn on screen.
#include "story/text/format.hpp"

#include <cmath>
#include <cstdio>

#include "story/text/plain_numbers.hpp"

namespace story {

namespace {

std::string with_unit(const std::string& number, const char* unit) {
    return number + kThinSpace + unit;
}

}  // namespace

// Trailing zeros carry no information on screen: "16 B", not "16.0 B".
std::string format_sig3(double v, const Locale& l) { return l.numbers().decimal(round_sig3(v)); }

std::string format_bytes(double bytes, const Locale& l) {
    const ScaledBytes s = scale_bytes(bytes);
    return with_unit(bytes == 0 ? format_int(0, l) : format_sig3(s.value, l), s.unit);
}

std::string format_bytes_per_param(double b, const Locale& l) {
    return with_unit(format_sig3(b, l), "B");
}

std::string format_time(double s, const Locale& l) {
    if (s == 0) return with_unit(format_int(0, l), "s");
    // Choose the unit after rounding, so 0.9996 s reads "1 s", not "1,000 ms".
    if (round_sig3(s * 1e6) < 1000) return with_unit(format_sig3(s * 1e6, l), "µs");
    if (round_sig3(s * 1e3) < 1000) return with_unit(format_sig3(s * 1e3, l), "ms");
    return with_unit(format_sig3(s, l), "s");
}

std::string format_bandwidth(double bytes_per_s, const Locale& l) {
    return with_unit(format_sig3(bytes_per_s / 1e9, l), "GB/s");
}

std::string format_percent(double fraction, const Locale& l) {
    return l.numbers().percent(round_sig3(fraction * 100));
}

std::string format_params(double n, const Locale& l) {
    if (std::fabs(n) < 1e6) return format_sig3(n, l);
    return l.numbers().compact(round_sig3(n));
}

std::string format_int(long long v, const Locale& l) { return l.numbers().integer(v, true); }

std::string format_count(long long v, const Locale& l) { return l.numbers().integer(v, false); }

std::string format_timecode(double seconds, char decimal_sep) {
    const long long ms = std::llround(seconds * 1000);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%02lld:%02lld:%02lld%c%03lld", ms / 3600000, ms / 60000 % 60,
                  ms / 1000 % 60, decimal_sep, ms % 1000);
    return buf;
}

std::string fraction_text(long long num, long long den, const Locale& l) {
    return format_count(num, l) + "/" + format_count(den, l);
}

}  // namespace story
