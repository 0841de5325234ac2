// Sound files in any format libav reads (WAV, FLAC, MP3, Opus, M4A...), decoded and resampled with
// libswresample to the float PCM the film mixes: recorded takes, music and sound cues.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace render {

// Every sound inside the film runs at this rate.
inline constexpr int kAudioRate = 48000;

// Interleaved float samples in [-1, 1].
struct DecodedAudio {
    int channels = 1;
    std::vector<float> samples;
    std::size_t frames() const { return samples.size() / static_cast<std::size_t>(channels); }
};

// The first audio stream of path at kAudioRate, mixed down or up to channels (1 or 2). Throws
// SystemError naming the file: "cannot open F: Invalid data found when processing input",
// "F has no audio stream", "cannot decode F: ...".
DecodedAudio decode_audio(const std::string& path, int channels);

// Mono float PCM at rate resampled to kAudioRate (what the synthesisers' 22.05 and 32 kHz
// output goes through). Sample i of the input and sample i * kAudioRate / rate of the output
// are the same instant: the resampler's delay is taken out.
std::vector<float> resample_mono(const std::vector<float>& pcm, int rate);

}  // namespace render
