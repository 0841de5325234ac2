// PNG encoding with libpng; see png_writer.hpp.
#include "render/sinks/png_writer.hpp"

#include <png.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "render/sys/error.hpp"
#include "render/sys/files.hpp"
#include "render/sys/temp_file.hpp"

namespace render {
namespace {

// Measured on eleven 1080p stills of the default film (README "Performance"): no filter at zlib
// level 3 is as small as Cairo's adaptive filters at level 6 in a fifth of the time; SUB, UP and
// PAETH each compress these frames worse at the same speed, Z_RLE worse still.
constexpr int png_filter = PNG_FILTER_NONE;
constexpr int zlib_level = 3;

struct Pixels {
    const unsigned char* data;
    int width, height, stride;
    bool opaque;
    const std::uint32_t* row(int y) const {
        return reinterpret_cast<const std::uint32_t*>(data +
                                                      static_cast<std::ptrdiff_t>(y) * stride);
    }
};

bool all_opaque(const Pixels& image) {
    for (int y = 0; y < image.height; ++y) {
        const std::uint32_t* row = image.row(y);
        for (int x = 0; x < image.width; ++x) {
            if ((row[x] >> 24) != 0xff) return false;
        }
    }
    return true;
}

// Cairo's pixels are native-endian 0xAARRGGBB words, premultiplied.
void to_rgb(const std::uint32_t* in, int width, unsigned char* out) {
    for (int x = 0; x < width; ++x, out += 3) {
        out[0] = static_cast<unsigned char>(in[x] >> 16);
        out[1] = static_cast<unsigned char>(in[x] >> 8);
        out[2] = static_cast<unsigned char>(in[x]);
    }
}

unsigned char unpremultiply(std::uint32_t channel, std::uint32_t alpha) {
    return static_cast<unsigned char>((channel * 255 + alpha / 2) / alpha);
}

void to_rgba(const std::uint32_t* in, int width, unsigned char* out) {
    for (int x = 0; x < width; ++x, out += 4) {
        const std::uint32_t p = in[x], a = p >> 24;
        out[0] = a ? unpremultiply((p >> 16) & 0xff, a) : 0;
        out[1] = a ? unpremultiply((p >> 8) & 0xff, a) : 0;
        out[2] = a ? unpremultiply(p & 0xff, a) : 0;
        out[3] = static_cast<unsigned char>(a);
    }
}

struct Output {
    std::string bytes;
    char error[128] = "";
};

void on_error(png_structp png, png_const_charp message) {
    auto* out = static_cast<Output*>(png_get_error_ptr(png));
    std::snprintf(out->error, sizeof out->error, "%s", message);
    png_longjmp(png, 1);
}

void on_warning(png_structp, png_const_charp) {}

// libpng's callbacks are C: a C++ exception must not cross them, so a failed append becomes
// png_error (outside the handler).
void append(png_structp png, png_bytep data, png_size_t length) {
    bool appended = true;
    try {
        static_cast<Output*>(png_get_io_ptr(png))
            ->bytes.append(reinterpret_cast<char*>(data), length);
    } catch (...) {
        appended = false;
    }
    if (!appended) png_error(png, "out of memory");
}

void flush(png_structp) {}

// libpng reports errors by longjmp to here: nothing in this frame has a destructor to skip.
bool encode_rows(png_structp png, png_infop info, const Pixels& image, unsigned char* row) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_set_IHDR(png, info, image.width, image.height, 8,
                 image.opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, png_filter);
    png_set_compression_level(png, zlib_level);
    png_write_info(png, info);
    for (int y = 0; y < image.height; ++y) {
        (image.opaque ? to_rgb : to_rgba)(image.row(y), image.width, row);
        png_write_row(png, row);
    }
    png_write_end(png, info);
    return true;
}

struct Writer {
    png_structp png = nullptr;
    png_infop info = nullptr;
    ~Writer() { png_destroy_write_struct(&png, &info); }
};

}  // namespace

std::string encode_png(cairo_surface_t* surface) {
    const cairo_format_t format = cairo_image_surface_get_format(surface);
    if (format != CAIRO_FORMAT_ARGB32 && format != CAIRO_FORMAT_RGB24)
        throw SystemError("cannot encode PNG: not an ARGB32 or RGB24 image surface");
    cairo_surface_flush(surface);
    Pixels image{cairo_image_surface_get_data(surface), cairo_image_surface_get_width(surface),
                 cairo_image_surface_get_height(surface), cairo_image_surface_get_stride(surface),
                 true};
    // RGB24's unused byte is undefined, not alpha.
    image.opaque = format == CAIRO_FORMAT_RGB24 || all_opaque(image);
    std::vector<unsigned char> row(static_cast<std::size_t>(image.width) * (image.opaque ? 3 : 4));

    Output out;
    Writer writer;
    writer.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &out, on_error, on_warning);
    if (writer.png) writer.info = png_create_info_struct(writer.png);
    if (!writer.info) throw SystemError("cannot encode PNG: out of memory");
    png_set_write_fn(writer.png, &out, append, flush);
    if (!encode_rows(writer.png, writer.info, image, row.data()))
        throw SystemError(std::string("cannot encode PNG: ") + out.error);
    return std::move(out.bytes);
}

void write_png(cairo_surface_t* surface, const std::string& path) {
    const std::string png = encode_png(surface);
    TempFile temp(path);
    write_temp(temp, png);
    temp.commit();
}

}  // namespace render
