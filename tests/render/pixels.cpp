// PNG stills read with Cairo and compared channel by channel with decoded frames.
#include "tests/render/pixels.hpp"

#include <cairo.h>

#include <cmath>
#include <cstdlib>

#include "tests/catch.hpp"

namespace render_test {

double mean_abs_diff(const std::filesystem::path& png, const std::vector<std::uint8_t>& rgb, int w,
                     int h) {
    cairo_surface_t* s = cairo_image_surface_create_from_png(png.c_str());
    REQUIRE(cairo_surface_status(s) == CAIRO_STATUS_SUCCESS);
    REQUIRE(cairo_image_surface_get_width(s) == w);
    REQUIRE(cairo_image_surface_get_height(s) == h);
    REQUIRE(rgb.size() == static_cast<std::size_t>(3 * w * h));
    const unsigned char* data = cairo_image_surface_get_data(s);
    const int stride = cairo_image_surface_get_stride(s);
    double sum = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const unsigned char* px = data + y * stride + 4 * x;  // B, G, R, A
            const std::uint8_t* v = &rgb[3 * (y * w + x)];
            sum += std::abs(px[2] - v[0]) + std::abs(px[1] - v[1]) + std::abs(px[0] - v[2]);
        }
    cairo_surface_destroy(s);
    return sum / (3.0 * w * h);
}

}  // namespace render_test
