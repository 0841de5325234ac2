// Draws a Scene into a reusable ARGB32 pixel buffer: the video path hands frames to the encoder
// without a Cairo surface per frame or a PNG round trip; FrameRaster redraws only what changed.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "render/draw/fonts.hpp"
#include "story/scene/scene.hpp"

namespace render {

// Cairo ARGB32: premultiplied, native-endian 32-bit pixels (B,G,R,A bytes on little-endian).
struct Frame {
    int width = 0, height = 0, stride = 0;
    std::vector<std::uint8_t> data;
};

// Paints scene at frame.width x frame.height; (re)sizes data and stride only when needed, so a
// Frame reused across a chapter allocates once. Throws SystemError on a Cairo failure.
void rasterize(const story::Scene& scene, const Fonts& fonts, Frame& frame);

// Draws the frames of one animation in order, with exactly rasterize()'s pixels, but keeps the
// pixels of the longest run of leading items that stayed the same (the static layers: links,
// cards, axes drawn first) and starts the next frame from them instead of from the background.
class RasterCanvas;

class FrameRaster {
  public:
    FrameRaster(const Fonts& fonts, int width, int height);
    ~FrameRaster();
    FrameRaster(const FrameRaster&) = delete;  // canvas_ draws into this object's frame_
    FrameRaster& operator=(const FrameRaster&) = delete;
    // Draws scene into frame(); false when scene equals the previous one (frame() is unchanged).
    bool draw(const story::Scene& scene);
    const Frame& frame() const { return frame_; }

  private:
    const Fonts& fonts_;
    Frame frame_;
    std::unique_ptr<RasterCanvas> canvas_;  // one Cairo context on frame_'s pixels, every frame
    std::vector<std::uint8_t> base_;        // background + the first base_items_ items of previous_
    std::size_t base_items_ = 0;            // 0: base_ holds nothing
    std::optional<story::Scene> previous_;
};

}  // namespace render
