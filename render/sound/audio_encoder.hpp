// One libavcodec audio encoder fed interleaved stereo float at 48 kHz in blocks of any size:
// AAC-LC for MP4 segments, Opus for WebM, float PCM for WAV. Frames are cut to the codec's
// frame size and stamped in samples, so packets land on a fixed grid from the first sample.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "render/av/av.hpp"

namespace render {

// Everything that shapes an audio stream's bytes; to_string() goes into cache keys.
struct AudioCodecSetup {
    std::string encoder;  // libavcodec's name: "aac", "libopus", "pcm_f32le"
    std::int64_t bit_rate = 0;
    double quality = 0;  // > 0: constant quality (libavcodec's -q:a), no rate control
    std::vector<std::pair<std::string, std::string>> options;
    bool operator==(const AudioCodecSetup&) const = default;
};
std::string to_string(const AudioCodecSetup& setup);

// AAC-LC stereo with FFmpeg's own encoder at constant quality 2 (about 126 kb/s for the narrated
// default film) with its `fast` coder, FFmpeg's default since 2018: against the two-loop coder at
// quality 1 it took 3.0 s of CPU instead of 7.6 s for the default film's sound, wrote 6.9 MB
// instead of 11.2 MB and followed the waveform closer (mean segmental SNR 36.6 dB against
// 27.8 dB; README "Sound"). Without rate control its output depends on the last few seconds
// only, which the joins of chapter segments need (render/sound/aac_segment.hpp). No noise
// substitution: it codes noise as noise, not as the waveform the seams are measured against.
const AudioCodecSetup& aac_setup();
// Opus at 128 kb/s, 20 ms frames (libopus).
const AudioCodecSetup& opus_setup();
// 32-bit float PCM: the mix exactly as mixed.
const AudioCodecSetup& wav_setup();

class AudioEncoder {
  public:
    using PacketSink = std::function<void(AVPacket*)>;
    // Throws SystemError when libavcodec lacks the encoder or refuses the setup.
    AudioEncoder(const AudioCodecSetup& setup, bool global_header, PacketSink sink);

    const AVCodecContext& context() const { return *codec_; }
    // Encodes `frames` interleaved stereo frames (any number; the rest waits for a full frame).
    void push(const float* pcm, std::size_t frames);
    // Encodes what is left (a short last frame) and drains the encoder.
    void finish();

  private:
    void send_from(std::size_t first, std::size_t frames);  // pending_'s frames from first
    void drain();

    CodecContextPtr codec_;
    PacketSink sink_;
    AvPacketPtr packet_ = make_packet();
    std::size_t frame_size_;
    std::vector<float> pending_;  // interleaved, less than one frame
    std::int64_t next_pts_ = 0;
};

}  // namespace render
