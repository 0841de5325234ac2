// The PNG writer: its files decode to exactly the pixels of Cairo's own writer (film frames at
// 1080p, translucent pixels at every alpha), RGB for opaque images, the same bytes for the same
// pixels, and clear errors.
#include "render/sinks/png_writer.hpp"

#include <cairo.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>

#include "render/draw/painter.hpp"
#include "render/sys/error.hpp"
#include "story/chapter/chapter.hpp"
#include "tests/catch.hpp"
#include "tests/render/cli.hpp"
#include "tests/render/test_scene.hpp"

namespace {

using Surface = std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)>;

Surface image(int width, int height) {
    return {cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height), cairo_surface_destroy};
}

cairo_status_t append(void* closure, const unsigned char* data, unsigned length) {
    static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
    return CAIRO_STATUS_SUCCESS;
}

std::string cairo_png(cairo_surface_t* surface) {
    std::string png;
    REQUIRE(cairo_surface_write_to_png_stream(surface, append, &png) == CAIRO_STATUS_SUCCESS);
    return png;
}

struct Reader {
    const std::string& png;
    std::size_t at = 0;
};

cairo_status_t read(void* closure, unsigned char* data, unsigned length) {
    auto* r = static_cast<Reader*>(closure);
    if (r->png.size() - r->at < length) return CAIRO_STATUS_READ_ERROR;
    std::memcpy(data, r->png.data() + r->at, length);
    r->at += length;
    return CAIRO_STATUS_SUCCESS;
}

// The pixels Cairo decodes from png, row by row without the stride's padding.
std::string decoded(const std::string& png) {
    Reader reader{png};
    Surface s(cairo_image_surface_create_from_png_stream(read, &reader), cairo_surface_destroy);
    REQUIRE(cairo_surface_status(s.get()) == CAIRO_STATUS_SUCCESS);
    cairo_surface_flush(s.get());
    const int width = cairo_image_surface_get_width(s.get());
    const int stride = cairo_image_surface_get_stride(s.get());
    const auto* data = reinterpret_cast<const char*>(cairo_image_surface_get_data(s.get()));
    std::string pixels;
    for (int y = 0; y < cairo_image_surface_get_height(s.get()); ++y)
        pixels.append(data + y * stride, static_cast<std::size_t>(width) * 4);
    return pixels;
}

// IHDR's colour type: 2 is RGB, 6 RGBA.
int color_type(const std::string& png) { return static_cast<unsigned char>(png.at(25)); }

// Premultiplied pixels at every alpha (rows) and channel values across [0, alpha] (columns).
Surface translucent() {
    Surface s = image(256, 256);
    unsigned char* data = cairo_image_surface_get_data(s.get());
    const int stride = cairo_image_surface_get_stride(s.get());
    for (std::uint32_t a = 0; a < 256; ++a) {
        auto* row = reinterpret_cast<std::uint32_t*>(data + a * stride);
        for (std::uint32_t x = 0; x < 256; ++x) {
            const std::uint32_t r = x * a / 255, g = (255 - x) * a / 255,
                                b = (x * 7 % 256) * a / 255;
            row[x] = a << 24 | r << 16 | g << 8 | b;
        }
    }
    cairo_surface_mark_dirty(s.get());
    return s;
}

}  // namespace

TEST_CASE("PNG writer: film frames at 1080p decode to the pixels of Cairo's writer", "[png]") {
    const story::Storyboard film = render_test::default_film_unvoiced();
    const story::Storyboard* board = &film;
    const render::Fonts& fonts = render_test::shipped_fonts();
    for (const auto& [id, t] :
         {std::pair{"bytes", 9.0}, {"ring", 2.0}, {"layout-3d", 5.0}, {"summary", 5.0}}) {
        INFO(id << "@" << t << "s");
        const story::ChapterSpec* chapter = nullptr;
        for (const auto& c : board->chapters)
            if (c.id == id) chapter = &c;
        REQUIRE(chapter);
        Surface frame = image(1920, 1080);
        cairo_t* cr = cairo_create(frame.get());
        render::paint(cr, story::make_chapter(*chapter, board->video, fonts)->scene_at(t), fonts,
                      1920, 1080);
        cairo_destroy(cr);

        const std::string ours = render::encode_png(frame.get());
        CHECK(color_type(ours) == 2);
        CHECK(decoded(ours) == decoded(cairo_png(frame.get())));
        // Near Cairo's size (its adaptive filters at zlib's default level): these frames are flat.
        CHECK(ours.size() < cairo_png(frame.get()).size() * 13 / 10);
    }
}

TEST_CASE("PNG writer: translucent pixels unpremultiply as Cairo's writer does", "[png]") {
    const Surface s = translucent();
    const std::string ours = render::encode_png(s.get());
    CHECK(color_type(ours) == 6);
    CHECK(decoded(ours) == decoded(cairo_png(s.get())));
}

TEST_CASE("PNG writer: RGB when opaque, RGBA from the first translucent pixel", "[png]") {
    Surface s = image(64, 32);
    cairo_t* cr = cairo_create(s.get());
    cairo_set_source_rgb(cr, 0.2, 0.4, 0.6);
    cairo_paint(cr);
    CHECK(color_type(render::encode_png(s.get())) == 2);
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
    cairo_set_source_rgba(cr, 0.2, 0.4, 0.6, 0.5);
    cairo_rectangle(cr, 63, 31, 1, 1);  // the very last pixel
    cairo_fill(cr);
    cairo_destroy(cr);
    const std::string png = render::encode_png(s.get());
    CHECK(color_type(png) == 6);
    CHECK(decoded(png) == decoded(cairo_png(s.get())));
}

TEST_CASE("PNG writer: the same pixels give the same bytes", "[png]") {
    const Surface a = translucent(), b = translucent();
    const std::string png = render::encode_png(a.get());
    CHECK(png.size() > 1000);
    CHECK(png == render::encode_png(a.get()));
    CHECK(png == render::encode_png(b.get()));
}

TEST_CASE("PNG writer: other surface formats and unwritable paths are errors", "[png]") {
    const Surface a8(cairo_image_surface_create(CAIRO_FORMAT_A8, 8, 8), cairo_surface_destroy);
    CHECK_THROWS_WITH(render::encode_png(a8.get()),
                      "cannot encode PNG: not an ARGB32 or RGB24 image surface");
    const Surface s = translucent();
    const std::string missing = render_test::scratch_path("no-such-dir") + "/x.png";
    CHECK_THROWS_WITH(render::write_png(s.get(), missing),
                      Catch::StartsWith("cannot write " + missing + ": "));
    CHECK_FALSE(std::filesystem::exists(missing));

    const std::string path = render_test::scratch_path("written.png");
    render::write_png(s.get(), path);
    CHECK(std::filesystem::file_size(path) == render::encode_png(s.get()).size());
}
