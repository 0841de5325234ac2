// PNG stills: the painter on an ARGB32 image surface, encoded by the one PNG writer.
#include "render/sinks/png_writer.hpp"
#include "render/sinks/still_sinks.hpp"

namespace render {

cairo_surface_t* PngSink::create_surface(const OutputSpec& spec) {
    return cairo_image_surface_create(CAIRO_FORMAT_ARGB32, spec.width, spec.height);
}

cairo_status_t PngSink::save(cairo_surface_t* surface) {
    const std::string png = encode_png(surface);
    return stream_to_file(this, reinterpret_cast<const unsigned char*>(png.data()),
                          static_cast<unsigned>(png.size()));
}

}  // namespace render
