// English numbers written without ICU, for text the browser's calculator module writes as well
// as the native binary (calc/): plan's shortfall message. story/text/format.hpp rounds and
// chooses units through these too, and in English writes the very same text (a test holds them
// equal), so the module and `shardreel plan` print one message.
#pragma once
#include <string>

namespace story {

// v rounded to 3 significant figures, in binary (half away from zero); 0 for 0 or not finite.
double round_sig3(double v);

// A size in bytes scaled to the unit it reads in once rounded: {84.6, "GB"} for 84.6e9, {0.5,
// "kB"} for 500, {0, "B"} for 0 (value unrounded).
struct ScaledBytes {
    double value;
    const char* unit;
};
ScaledBytes scale_bytes(double bytes);

std::string plain_sig3(double v);       // "1,120", "84.6", "0.57", "-3"
std::string plain_int(long long v);     // "16,384"
std::string plain_bytes(double bytes);  // "84.6 GB" (a thin space before the unit), "0 B"

}  // namespace story
