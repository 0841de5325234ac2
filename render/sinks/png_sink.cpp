// PNG stills: the painter on an ARGB32 image surface, encoded by Cairo's PNG writer.
#include "render/sinks/still_sinks.hpp"

namespace render {

cairo_surface_t* PngSink::create_surface(const OutputSpec& spec) {
    return cairo_image_surface_create(CAIRO_FORMAT_ARGB32, spec.width, spec.height);
}

cairo_status_t PngSink::save(cairo_surface_t* surface) {
    return cairo_surface_write_to_png_stream(surface, stream_to_file, this);
}

}  // namespace render
