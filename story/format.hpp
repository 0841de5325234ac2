// How numbers read on screen (STYLE.md): decimal GB, 3 significant figures, thousands
// separators, a thin space before the unit.
#pragma once
#include <string>

namespace story {

inline constexpr const char* kThinSpace = "\u2009";

std::string format_sig3(
    double v);  // 3 significant figures, no trailing zeros: "1,120", "13.5", "0.57"
std::string format_bytes(double bytes);                   // "112 GB", "1,120 GB", "570 MB", "0 B"
std::string format_bytes_per_param(double b);             // "16 B", "1 B"
std::string format_time(double s);                        // "3.2 ms", "1.25 s", "850 µs"
std::string format_bandwidth(double bytes_per_s);         // "900 GB/s"
std::string format_percent(double fraction);              // "12.5%"
std::string format_params(double n);                      // "7B", "6.74B", "175B", "1.5M"
std::string format_int(long long v);                      // "1,024"
std::string fraction_text(long long num, long long den);  // "7/8", as the captions write it
// "00:01:02.500" (WebVTT, scripts) or with ',' "00:01:02,500" (SRT); to the nearest ms.
std::string format_timecode(double seconds, char decimal_sep);

}  // namespace story
