// libswresample behind one small class: PCM in any layout, format and rate to interleaved float
// at the film's rate (kAudioRate, audio_decode.hpp), for decoded files and engines' raw output.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

extern "C" {
#include <libavutil/channel_layout.h>
#include <libavutil/frame.h>
#include <libavutil/samplefmt.h>
}

struct SwrContext;

namespace render {

class Resampler {
  public:
    // From layout/format/rate to `channels` (1 or 2) float channels at kAudioRate. Throws
    // SystemError when libswresample refuses.
    Resampler(const AVChannelLayout& layout, AVSampleFormat format, int rate, int channels);
    ~Resampler();
    Resampler(const Resampler&) = delete;
    Resampler& operator=(const Resampler&) = delete;

    // Whether frames like this one go through without a new resampler.
    bool takes(const AVFrame& frame) const;
    // Appends the output for count input samples per channel (in: one plane per channel for
    // planar formats, one buffer otherwise).
    void convert(const std::uint8_t* const* in, int count, std::vector<float>& out);
    // Appends what the filter still holds.
    void flush(std::vector<float>& out);

  private:
    struct SwrDeleter {
        void operator()(SwrContext* s) const;
    };
    std::unique_ptr<SwrContext, SwrDeleter> swr_;
    AVChannelLayout layout_{};
    int channels_;
    AVSampleFormat format_;
    int rate_;
};

}  // namespace render
