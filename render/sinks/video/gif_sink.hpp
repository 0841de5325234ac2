// Animated GIF output for docs and chat: one global 256-colour palette (median cut over frames
// sampled across the whole film), nearest-colour mapping without dithering, libavcodec's GIF
// encoder (changed rectangles only) and muxer (loops forever), written through a temporary file.
#pragma once
#include <string>
#include <vector>

#include "render/draw/fonts.hpp"
#include "render/sinks/sink.hpp"
#include "render/sinks/sink_output.hpp"

namespace render {

// GIF delays are whole centiseconds: frame i starts at round(100 i / fps) cs, so delays
// alternate (30 fps: 3, 3, 4 cs; 24 fps: 4, 4, 4, 4, 5 cs) and the total length stays exact.
// Browsers stretch delays under 2 cs, so above 50 fps a frame is dropped when it would start
// less than 2 cs after the previous one kept. The last frame keeps the previous delay.
struct GifFrame {
    int index = 0;  // frame of the film
    int start = 0;  // centiseconds
    bool operator==(const GifFrame&) const = default;
};
std::vector<GifFrame> gif_timing(int frames, int fps);

class GifSink final : public FrameSink {
  public:
    static constexpr int palette_samples = 24;  // frames rasterised to build the palette

    explicit GifSink(const Fonts& fonts);
    ~GifSink() override;

    void begin(const OutputSpec& spec) override;
    // Keeps the display list (small), not pixels: the palette needs the whole film first.
    void write(const story::Scene& scene) override;
    // Builds the palette, then rasterises, maps and encodes every frame.
    void finish() override;
    void abort() noexcept override;

  private:
    struct Film;  // the spec and the scenes written, encoded on finish()
    const Fonts& fonts_;
    SinkOutput<Film> film_;
};

}  // namespace render
