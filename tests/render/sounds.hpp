// Synthetic sounds for the audio tests (no recordings in the repository): speech-like bursts
// normalised to -16 LUFS, tones, files in the speech cache's raw format and as WAV, and a
// decoded file read back whole.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace render_test {

// Mono 48 kHz: syllables (a 4 Hz envelope) of harmonics over noise, at -16 LUFS when played
// centred in stereo (as the mixer plays mono), sample peak well under -1 dBFS. seed varies it.
std::vector<float> speech_like(double seconds, unsigned seed);
// Mono 48 kHz sine.
std::vector<float> tone(double seconds, double hz, double amplitude);

// Raw little-endian float, what the speech cache holds.
void write_f32(const std::filesystem::path& path, const std::vector<float>& mono);
// 16-bit PCM WAV of interleaved samples.
void write_wav(const std::filesystem::path& path, const std::vector<float>& samples, int channels,
               int rate);

// The first audio stream of a file decoded to 48 kHz stereo, interleaved.
std::vector<float> decode_stereo(const std::filesystem::path& path);

// Root mean square of interleaved stereo frames [from, to).
double rms(const std::vector<float>& stereo, std::int64_t from, std::int64_t to);

}  // namespace render_test
