// Sound for the audio tests: tones, WAV files written by hand (RIFF header and 16-bit samples),
// and what a listener would measure: loudness (libebur128), peak, pitch.
#pragma once
#include <filesystem>
#include <vector>

namespace render_test {

// A sine of freq Hz, seconds long at rate, with the given peak amplitude (mono).
std::vector<float> tone(double freq, double seconds, int rate, double amplitude);
// silence seconds long at rate.
std::vector<float> silence(double seconds, int rate);
// a then b.
std::vector<float> concat(std::vector<float> a, const std::vector<float>& b);

// A 16-bit PCM WAV of interleaved samples.
void write_wav(const std::filesystem::path& path, int rate, int channels,
               const std::vector<float>& samples);
// Mono samples as interleaved stereo (the same in both channels).
std::vector<float> stereo(const std::vector<float>& mono);

// EBU R128 integrated loudness of 48 kHz mono PCM, LUFS.
double lufs(const std::vector<float>& pcm);
// Largest |sample|, dBFS.
double peak_dbfs(const std::vector<float>& pcm);
// Index of the first sample louder than db dBFS (pcm.size() when none is).
std::size_t first_above(const std::vector<float>& pcm, double db);
// Frequency of a tone from its upward zero crossings, Hz.
double pitch(const std::vector<float>& pcm, int rate);

}  // namespace render_test
