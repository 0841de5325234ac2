// Comparing decoded video frames with stills: how far apart two pictures of one moment are.
#pragma once
#include <cstdint>
#include <filesystem>
#include <vector>

namespace render_test {

// Mean absolute difference per channel (0-255) between a PNG still and tightly packed RGB24
// pixels of the same size (render::decode_frame_rgb's output).
double mean_abs_diff(const std::filesystem::path& png, const std::vector<std::uint8_t>& rgb, int w,
                     int h);

}  // namespace render_test
