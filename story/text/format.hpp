// How numbers read on screen (STYLE.md): decimal GB, 3 significant figures, thousands
// separators, a thin space before the unit. Digits, separators, the percent sign and the words
// for large counts follow the film's locale (ICU, story/text/numbers.hpp): en "1,120 GB", de
// "1.120 GB", hi "1,00,000", ar in Arabic-Indic digits "١٬١٢٠ GB"; units stay SI. English when
// no locale is given (the CLI's tables, the page's facts).
#pragma once
#include <string>

#include "story/text/locale.hpp"

namespace story {

inline constexpr const char* kThinSpace = "\u2009";

// 3 significant figures, no trailing zeros: "1,120", "13.5", "0.57" (de "1.120", "13,5")
std::string format_sig3(double v, const Locale& l = Locale::english());
// "112 GB", "1,120 GB", "570 MB", "0 B"
std::string format_bytes(double bytes, const Locale& l = Locale::english());
std::string format_bytes_per_param(double b, const Locale& l = Locale::english());  // "16 B"
// "3.2 ms", "1.25 s", "850 µs"
std::string format_time(double s, const Locale& l = Locale::english());
std::string format_bandwidth(double bytes_per_s,
                             const Locale& l = Locale::english());                 // "900 GB/s"
std::string format_percent(double fraction, const Locale& l = Locale::english());  // "12.5%"
// "7B", "6.74B", "175B", "1.5M" (de "7 Mrd.", ja "70億"); under a million a count: "1,230"
std::string format_params(double n, const Locale& l = Locale::english());
std::string format_int(long long v, const Locale& l = Locale::english());  // "1,024"
// A whole number without grouping, as names and steps write it: "GPU 1024", "step 3".
std::string format_count(long long v, const Locale& l = Locale::english());
// "7/8", as the captions write it
std::string fraction_text(long long num, long long den, const Locale& l = Locale::english());
// "00:01:02.500" (WebVTT, scripts) or with ',' "00:01:02,500" (SRT); to the nearest ms.
std::string format_timecode(double seconds, char decimal_sep);

}  // namespace story
