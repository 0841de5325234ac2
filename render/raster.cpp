// Scene -> pixels in a caller-owned buffer, wrapped by a short-lived Cairo image surface.
#include "render/raster.hpp"

#include <memory>
#include <string>

#include "render/error.hpp"
#include "render/painter.hpp"

namespace render {

void rasterize(const story::Scene& scene, const Fonts& fonts, Frame& frame) {
    frame.stride = cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, frame.width);
    if (frame.stride <= 0 || frame.height <= 0) {
        throw SystemError("cannot draw a frame of " + std::to_string(frame.width) + "x" +
                          std::to_string(frame.height) + " px");
    }
    frame.data.resize(static_cast<std::size_t>(frame.stride) * frame.height);
    std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> surface(
        cairo_image_surface_create_for_data(frame.data.data(), CAIRO_FORMAT_ARGB32, frame.width,
                                            frame.height, frame.stride),
        cairo_surface_destroy);
    std::unique_ptr<cairo_t, decltype(&cairo_destroy)> cr(cairo_create(surface.get()),
                                                          cairo_destroy);
    paint(cr.get(), scene, fonts, frame.width, frame.height);
    cairo_surface_flush(surface.get());
    if (const cairo_status_t status = cairo_status(cr.get()); status != CAIRO_STATUS_SUCCESS) {
        throw SystemError(std::string("cannot draw frame: ") + cairo_status_to_string(status));
    }
}

}  // namespace render
