// H.264 MP4 output through libavcodec/libavformat: BT.709 yuv420p, +faststart, and
// byte-identical files for identical frames (bit-exact flags, fixed x264 settings and threads);
// frames are drawn and converted on the caller's thread while a second thread encodes.
#pragma once
#include <memory>
#include <optional>
#include <string>

#include "render/draw/fonts.hpp"
#include "render/draw/raster.hpp"
#include "render/sinks/sink.hpp"
#include "render/sinks/sink_output.hpp"

namespace render {

// Everything that shapes the encoded bytes; public so cache keys can include it.
struct EncoderSettings {
    std::string preset = "medium";
    int crf = 20;
    std::string tune;     // empty: no x264 tune
    int threads = 2;      // x264 output is deterministic only for a fixed thread count
    int gop_seconds = 2;  // a keyframe at least every gop_seconds
    // Frames x264 looks ahead for frame types and rate control (medium's own is 40). With 10 the
    // ffmpeg floor of bench/ peaks at 291 MB instead of 491 MB at 1080p, for PSNR 51.3 dB
    // instead of 52.9 dB at crf 20 and a file 8% smaller (README, "Performance").
    int rc_lookahead = 10;
    bool operator==(const EncoderSettings&) const = default;
};

// "preset=medium crf=20 tune= threads=2 gop_seconds=2 rc_lookahead=10": stable text for cache keys.
std::string to_string(const EncoderSettings& settings);

class Mp4Sink final : public FrameSink {
  public:
    explicit Mp4Sink(const Fonts& fonts, EncoderSettings settings = {});
    ~Mp4Sink() override;  // aborts an unfinished file
    Mp4Sink(const Mp4Sink&) = delete;
    Mp4Sink& operator=(const Mp4Sink&) = delete;

    void begin(const OutputSpec& spec) override;
    void write(const story::Scene& scene) override;
    // Encodes a frame rendered elsewhere; its size must match the spec given to begin().
    void write_frame(const Frame& frame);
    void finish() override;
    void abort() noexcept override;

    const EncoderSettings& settings() const { return settings_; }

  private:
    struct Encoder;
    struct Pipeline;
    const Fonts& fonts_;
    EncoderSettings settings_;
    std::optional<FrameRaster> raster_;  // write()'s pixels, allocated once per file
    SinkOutput<Pipeline> pipeline_;
};

}  // namespace render
