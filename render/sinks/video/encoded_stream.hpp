// One encoded video stream in a libav muxer, and optionally a sound stream beside it, written
// through a temporary file and renamed on finish: the part the WebM and GIF sinks share (open,
// send frames, drain packets, trailer).
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "render/av/av.hpp"
#include "render/sinks/sink.hpp"
#include "render/sound/audio_encoder.hpp"
#include "render/sys/temp_file.hpp"

namespace render {

struct StreamSetup {
    const char* muxer = "";    // "webm", "gif"
    const char* encoder = "";  // "libvpx-vp9", "gif"
    int width = 0, height = 0;
    AVPixelFormat pix_fmt = AV_PIX_FMT_NONE;
    AVRational time_base{1, 30};
    AVRational frame_rate{30, 1};
    int threads = 1;
    std::int64_t bit_rate = 0;
    bool bt709 = false;  // tag BT.709 limited range (what make_yuv420p_converter produces)
    std::vector<std::pair<std::string, std::string>> options;  // the encoder's options
    MuxerOptions muxer_options;                                // e.g. kMp4Options
    bool unit_duration = false;  // a packet without a duration lasts one tick (MP4's last sample)
};

// The fields every sink sets: muxer and encoder, spec's size and frame rate, the pixel format
// and the time base of the packets.
StreamSetup stream_setup(const char* muxer, const char* encoder, const OutputSpec& spec,
                         AVPixelFormat pix_fmt, AVRational time_base);

// Throws SystemError unless spec can be encoded as yuv420p (even sides, positive frame rate).
void check_yuv420p(const OutputSpec& spec);

class EncodedStream {
  public:
    // With sound, a second stream of 48 kHz stereo encoded with *sound.
    EncodedStream(const std::string& final_path, const StreamSetup& setup,
                  const AudioCodecSetup* sound = nullptr);
    // frame->pts is in setup.time_base; the frame must match the setup's size and format.
    void send(AVFrame* frame);
    // Interleaved stereo float frames continuing the sound stream (which starts at the video's
    // first frame).
    void send_sound(const float* pcm, std::size_t frames);
    // Flushes the encoders, writes the trailer, closes and renames the file into place.
    void finish();
    // A frame buffer of the stream's size and pixel format.
    AvFramePtr make_picture() const;

  private:
    void drain();

    TempFile temp_;
    OutputContextPtr output_;
    CodecContextPtr codec_;
    AvPacketPtr packet_ = make_packet();
    AVStream* stream_ = nullptr;
    AVStream* sound_stream_ = nullptr;
    std::optional<AudioEncoder> sound_;
    bool unit_duration_ = false;
};

// Cairo's ARGB32 (libav's RGB32) to BT.709 limited-range yuv420p, accurate rounding.
SwsPtr make_yuv420p_converter(int width, int height);

}  // namespace render
