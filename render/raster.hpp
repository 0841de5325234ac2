// Draws a Scene into a reusable ARGB32 pixel buffer: the video path hands frames to the encoder
// without a Cairo surface per frame or a PNG round trip.
#pragma once
#include <cstdint>
#include <vector>

#include "render/fonts.hpp"
#include "story/scene.hpp"

namespace render {

// Cairo ARGB32: premultiplied, native-endian 32-bit pixels (B,G,R,A bytes on little-endian).
struct Frame {
    int width = 0, height = 0, stride = 0;
    std::vector<std::uint8_t> data;
};

// Paints scene at frame.width x frame.height; (re)sizes data and stride only when needed, so a
// Frame reused across a chapter allocates once. Throws SystemError on a Cairo failure.
void rasterize(const story::Scene& scene, const Fonts& fonts, Frame& frame);

}  // namespace render
