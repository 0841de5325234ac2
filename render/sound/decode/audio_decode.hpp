// Sound files read as a stream of 48 kHz float PCM, a block at a time: music and `sound:` cues in
// any format libav reads (decoded, resampled and remixed with libswresample), and the speech
// cache's raw mono float files. Streaming keeps a film-long music track out of memory. Also the
// synthesisers' output resampled (resample_mono).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace render {

// Every sound in the film runs at this rate.
inline constexpr int kAudioRate = 48000;

// What a file holds, read from its header: for checking inputs before anything is rendered.
struct AudioProbe {
    std::string codec;   // libavcodec's name: "aac", "opus", "pcm_f32le", ...
    double seconds = 0;  // the container's estimate (exact lengths come from decoding)
    int channels = 0, sample_rate = 0;
};
// Throws SystemError naming the file when it cannot be opened or has no audio stream.
AudioProbe probe_audio(const std::string& path);

class AudioReader {
  public:
    // Opens path for reading as `channels` (1 or 2) interleaved channels at kAudioRate.
    // A path ending in .f32 is raw little-endian mono float at that rate (the speech cache);
    // anything else is decoded with libav. Mono goes to stereo at -3 dB per channel (equal
    // power, as libswresample's centre mix does), so a line keeps its loudness in stereo.
    // Throws SystemError naming the file.
    AudioReader(const std::string& path, int channels);
    ~AudioReader();
    AudioReader(const AudioReader&) = delete;
    AudioReader& operator=(const AudioReader&) = delete;

    // Reads up to `frames` frames into out; fewer only at the end of the file (0 after it).
    std::size_t read(float* out, std::size_t frames);
    // Drops the next `frames` frames (fewer at the end of the file).
    void skip(std::int64_t frames);
    int channels() const { return channels_; }

    struct Source;

  private:
    int channels_;
    std::unique_ptr<Source> source_;
};

// The exact number of frames the file decodes to at kAudioRate (reads it through).
std::int64_t audio_frames(const std::string& path);

// Interleaved float samples in [-1, 1].
struct DecodedAudio {
    int channels = 1;
    std::vector<float> samples;
    std::size_t frames() const { return samples.size() / static_cast<std::size_t>(channels); }
};

// A whole file through AudioReader (recorded takes: a line, not a film-long track).
DecodedAudio decode_audio(const std::string& path, int channels);

// Mono float PCM at rate resampled to kAudioRate (what the synthesisers' 22.05 and 32 kHz
// output goes through). Sample i of the input and sample i * kAudioRate / rate of the output
// are the same instant: the resampler's delay is taken out.
std::vector<float> resample_mono(const std::vector<float>& pcm, int rate);

}  // namespace render
