// What every spoken line goes through before the film hears it: the silence the engine or the
// microphone left at both ends trimmed to the same 30 ms, its level brought to the film's
// loudness and its peaks held under a ceiling.
#pragma once
#include <cstddef>
#include <vector>

namespace render::voice {

inline constexpr double kLineLufs = -16;      // integrated loudness of every line
inline constexpr double kLinePeakDbfs = -1;   // no sample of a line is louder
inline constexpr double kSilenceDbfs = -50;   // quieter samples at the ends are silence
inline constexpr double kKeptSilence = 0.03;  // seconds of it kept before and after the speech

// Cuts 48 kHz pcm to its first and last sample louder than kSilenceDbfs, widened by kKeptSilence
// on each side (padded with silence where the engine left less), so every line starts and ends
// alike. Returns how many samples came off the front, negative when some were added; an
// all-silent line is kept as it is.
std::ptrdiff_t trim_silence(std::vector<float>& pcm);

// Scales 48 kHz pcm to kLineLufs (EBU R128 integrated, libebur128; a line under 0.4 s, which
// holds no gating block, by the loudness of its whole length) and holds every sample under
// kLinePeakDbfs with a look-ahead peak limiter: speech peaks 15 to 20 dB over its loudness, so a
// plain gain capped at the peak would leave most lines short of the target. The gain is refined
// until the limited line measures within 0.05 LU of it. Silence is left as it is.
void normalise_loudness(std::vector<float>& pcm);

}  // namespace render::voice
