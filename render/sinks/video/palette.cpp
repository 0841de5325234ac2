// Median-cut palettes and nearest-colour mapping; see palette.hpp.
#include "render/sinks/video/palette.hpp"

#include <algorithm>
#include <array>
#include <cstring>

namespace render {
namespace {

struct Entry {
    std::array<int, 3> rgb;
    std::uint64_t count;
};

std::array<int, 3> channels(std::uint32_t rgb) {
    return {static_cast<int>(rgb >> 16 & 0xFF), static_cast<int>(rgb >> 8 & 0xFF),
            static_cast<int>(rgb & 0xFF)};
}

// A half-open range [first, last) of entries: one candidate palette colour.
struct Box {
    std::size_t first, last;
    int axis = 0, range = 0;
    std::uint64_t pixels = 0;
};

Box measure(const std::vector<Entry>& entries, std::size_t first, std::size_t last) {
    Box box{first, last};
    std::array<int, 3> lo{255, 255, 255}, hi{0, 0, 0};
    for (std::size_t i = first; i < last; ++i) {
        for (int c = 0; c < 3; ++c) {
            lo[c] = std::min(lo[c], entries[i].rgb[c]);
            hi[c] = std::max(hi[c], entries[i].rgb[c]);
        }
        box.pixels += entries[i].count;
    }
    for (int c = 0; c < 3; ++c) {
        if (hi[c] - lo[c] > box.range) box.range = hi[c] - lo[c], box.axis = c;
    }
    return box;
}

// Sorts the box along its axis (ties by full colour, so the order is total) and cuts it where
// half of its pixels lie on each side, keeping at least one colour per half.
std::pair<Box, Box> split(std::vector<Entry>& entries, const Box& box) {
    const int axis = box.axis;
    std::sort(entries.begin() + box.first, entries.begin() + box.last,
              [axis](const Entry& a, const Entry& b) {
                  return a.rgb[axis] != b.rgb[axis] ? a.rgb[axis] < b.rgb[axis] : a.rgb < b.rgb;
              });
    std::uint64_t seen = 0;
    std::size_t cut = box.first + 1;
    for (std::size_t i = box.first; i + 1 < box.last; ++i) {
        seen += entries[i].count;
        cut = i + 1;
        if (2 * seen >= box.pixels) break;
    }
    return {measure(entries, box.first, cut), measure(entries, cut, box.last)};
}

std::uint32_t mean_color(const std::vector<Entry>& entries, const Box& box) {
    std::array<std::uint64_t, 3> sum{};
    for (std::size_t i = box.first; i < box.last; ++i)
        for (int c = 0; c < 3; ++c) sum[c] += entries[i].count * entries[i].rgb[c];
    std::uint32_t rgb = 0;
    for (int c = 0; c < 3; ++c)
        rgb = rgb << 8 | static_cast<std::uint32_t>((sum[c] + box.pixels / 2) / box.pixels);
    return rgb;
}

// 0xRRGGBB of pixel x of a row of Cairo ARGB32 (native-endian) pixels.
std::uint32_t pixel_at(const std::uint8_t* row, int x) {
    std::uint32_t pixel;
    std::memcpy(&pixel, row + 4 * x, 4);
    return pixel & 0xFFFFFF;
}

}  // namespace

void add_to_histogram(const Frame& frame, ColorHistogram& histogram) {
    for (int y = 0; y < frame.height; ++y) {
        const std::uint8_t* row = frame.data.data() + static_cast<std::size_t>(y) * frame.stride;
        // Runs of one colour are counted at once: flat graphics are mostly runs.
        for (int x = 0; x < frame.width;) {
            const std::uint32_t rgb = pixel_at(row, x);
            int end = x + 1;
            while (end < frame.width && pixel_at(row, end) == rgb) ++end;
            histogram[rgb] += static_cast<std::uint64_t>(end - x);
            x = end;
        }
    }
}

std::vector<std::uint32_t> median_cut(const ColorHistogram& histogram, int colors) {
    std::vector<std::uint32_t> palette;
    if (histogram.size() <= static_cast<std::size_t>(colors)) {
        for (const auto& [rgb, count] : histogram) palette.push_back(rgb);
        return palette;
    }
    std::vector<Entry> entries;
    for (const auto& [rgb, count] : histogram) entries.push_back({channels(rgb), count});
    std::vector<Box> boxes{measure(entries, 0, entries.size())};
    while (boxes.size() < static_cast<std::size_t>(colors)) {
        auto widest = std::max_element(boxes.begin(), boxes.end(), [](const Box& a, const Box& b) {
            return 1.0 * a.range * a.pixels < 1.0 * b.range * b.pixels;
        });
        if (widest->range == 0) break;  // every box holds a single colour
        auto [low, high] = split(entries, *widest);
        *widest = low;
        boxes.push_back(high);
    }
    for (const Box& box : boxes) palette.push_back(mean_color(entries, box));
    return palette;
}

PaletteMapper::PaletteMapper(std::vector<std::uint32_t> palette)
    : palette_(std::move(palette)), memo_(std::size_t{1} << 24, -1) {}

std::uint8_t PaletteMapper::nearest(std::uint32_t rgb) {
    std::int16_t& memo = memo_[rgb];
    if (memo >= 0) return static_cast<std::uint8_t>(memo);
    const auto want = channels(rgb);
    int best = 0, best_distance = 1 << 30;
    for (std::size_t i = 0; i < palette_.size(); ++i) {
        const auto have = channels(palette_[i]);
        int distance = 0;
        for (int c = 0; c < 3; ++c) distance += (want[c] - have[c]) * (want[c] - have[c]);
        if (distance < best_distance) best_distance = distance, best = static_cast<int>(i);
    }
    memo = static_cast<std::int16_t>(best);
    return static_cast<std::uint8_t>(best);
}

void PaletteMapper::map(const Frame& frame, std::uint8_t* indices, int pitch) {
    for (int y = 0; y < frame.height; ++y) {
        const std::uint8_t* row = frame.data.data() + static_cast<std::size_t>(y) * frame.stride;
        std::uint8_t* out = indices + static_cast<std::ptrdiff_t>(y) * pitch;
        for (int x = 0; x < frame.width; ++x) out[x] = nearest(pixel_at(row, x));
    }
}

}  // namespace render
