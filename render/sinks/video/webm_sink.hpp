// WebM output: VP9 (libvpx-vp9 through libavcodec), BT.709 yuv420p, constant quality, with the
// film's sound as Opus beside it when it has any, and byte-identical files for identical input
// (fixed threads, bit-exact muxer, no dates).
#pragma once
#include <memory>
#include <string>

#include "render/draw/fonts.hpp"
#include "render/draw/raster.hpp"
#include "render/sinks/sink.hpp"
#include "render/sinks/sink_output.hpp"
#include "render/sound/audio_mix.hpp"

namespace render {

// Everything that shapes the encoded bytes.
struct Vp9Settings {
    int crf = 32;         // constant quality (b:v 0); 31-34 is libvpx's advice for 1080p
    int cpu_used = 4;     // libvpx speed/quality trade-off for the "good" deadline
    int threads = 2;      // with tile columns: deterministic for a fixed count
    int gop_seconds = 2;  // a keyframe at least every gop_seconds
    bool operator==(const Vp9Settings&) const = default;
};

class WebmSink final : public FrameSink {
  public:
    // With sound (which must outlive the sink), its mix is encoded as Opus, in step with the
    // frames: frame f's sound is film samples [film_sample(f), film_sample(f + 1)).
    explicit WebmSink(const Fonts& fonts, Vp9Settings settings = {},
                      const FilmAudio* sound = nullptr);
    ~WebmSink() override;  // aborts an unfinished file
    WebmSink(const WebmSink&) = delete;
    WebmSink& operator=(const WebmSink&) = delete;

    void begin(const OutputSpec& spec) override;
    void write(const story::Scene& scene) override;
    void finish() override;
    void abort() noexcept override;

  private:
    struct Encoder;
    const Fonts& fonts_;
    Vp9Settings settings_;
    const FilmAudio* sound_;
    Frame frame_;  // reused by write(), so a film allocates its pixels once
    SinkOutput<Encoder> encoder_;
};

}  // namespace render
