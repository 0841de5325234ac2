// A deterministic 256-colour palette for GIF: median cut over a colour histogram of sampled
// frames, and nearest-colour mapping of whole frames (no dithering: flat graphics stay flat).
#pragma once
#include <cstdint>
#include <map>
#include <vector>

#include "render/draw/raster.hpp"

namespace render {

// Pixel counts by 0xRRGGBB; ordered, so everything built from it is deterministic.
using ColorHistogram = std::map<std::uint32_t, std::uint64_t>;

// Adds the frame's opaque pixels (alpha is ignored: frames are painted over a background).
void add_to_histogram(const Frame& frame, ColorHistogram& histogram);

// At most `colors` entries as 0xRRGGBB: every colour when there are few enough, otherwise the
// count-weighted mean of each median-cut box (the box with the largest range x pixels is split
// next, along its longest axis, at the weighted median).
std::vector<std::uint32_t> median_cut(const ColorHistogram& histogram, int colors = 256);

// Maps pixels to the nearest palette entry (Euclidean RGB), memoised per exact colour.
class PaletteMapper {
  public:
    explicit PaletteMapper(std::vector<std::uint32_t> palette);
    const std::vector<std::uint32_t>& palette() const { return palette_; }
    // Writes one index per pixel into rows of `pitch` bytes.
    void map(const Frame& frame, std::uint8_t* indices, int pitch);

  private:
    std::uint8_t nearest(std::uint32_t rgb);

    std::vector<std::uint32_t> palette_;
    std::vector<std::int16_t> memo_;  // by 0xRRGGBB; -1 until first seen
};

}  // namespace render
