// PNG stills: the painter on an ARGB32 image surface, encoded by the one PNG writer.
#include <sys/mman.h>

#include <cstdlib>
#include <cstring>

#include "render/sinks/png_writer.hpp"
#include "render/sinks/still_sinks.hpp"

namespace render {
namespace {

constexpr std::size_t huge_page = std::size_t{2} << 20;
const cairo_user_data_key_t pixels_key{};

}  // namespace

// The pixels are our own, aligned to and advised into transparent huge pages where the kernel
// offers them: a 1080p frame's 8 MB then fault in as a few pages instead of 2,025, which was a
// tenth of a still's CPU time. Zeroed, as Cairo's own are.
cairo_surface_t* PngSink::create_surface(const OutputSpec& spec) {
    const int stride = cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, spec.width);
    if (stride <= 0 || spec.height <= 0)
        return cairo_image_surface_create(CAIRO_FORMAT_ARGB32, spec.width, spec.height);
    const std::size_t bytes = static_cast<std::size_t>(stride) * spec.height;
    const std::size_t size = (bytes + huge_page - 1) / huge_page * huge_page;
    void* pixels = std::aligned_alloc(huge_page, size);
    if (!pixels) return cairo_image_surface_create(CAIRO_FORMAT_ARGB32, spec.width, spec.height);
#ifdef MADV_HUGEPAGE
    madvise(pixels, size, MADV_HUGEPAGE);  // advice only: without it, ordinary pages
#endif
    std::memset(pixels, 0, bytes);
    cairo_surface_t* surface = cairo_image_surface_create_for_data(
        static_cast<unsigned char*>(pixels), CAIRO_FORMAT_ARGB32, spec.width, spec.height, stride);
    if (cairo_surface_set_user_data(surface, &pixels_key, pixels, std::free) !=
        CAIRO_STATUS_SUCCESS)
        std::free(pixels);  // surface is then an error surface, which never reads them
    return surface;
}

cairo_status_t PngSink::save(cairo_surface_t* surface) {
    const std::string png = encode_png(surface);
    return stream_to_file(this, reinterpret_cast<const unsigned char*>(png.data()),
                          static_cast<unsigned>(png.size()));
}

}  // namespace render
