// The one PNG writer (stills, PNG sequences, the contact sheet, the tests' images): libpng with
// one fixed filter and a fast zlib level, several times faster than Cairo's writer (which tries
// every filter on every row at zlib's default level) and about as small on flat explainer frames.
#pragma once
#include <cairo.h>

#include <string>

namespace render {

// The PNG of an ARGB32 or RGB24 image surface: 8-bit RGB when every pixel is opaque (every
// frame is: the background is), else 8-bit RGBA with straight alpha, unpremultiplied with
// Cairo's rounding, so it decodes to the pixels Cairo's own writer would give. Same pixels, same
// bytes. Throws SystemError (another surface format, out of memory).
std::string encode_png(cairo_surface_t* surface);

// encode_png, written through a temporary file beside path and renamed into place. Throws
// SystemError naming path, with the system's reason (a full disk).
void write_png(cairo_surface_t* surface, const std::string& path);

}  // namespace render
