// Stills; see still.hpp.
#include "render/sinks/still.hpp"

#include "render/draw/painter.hpp"
#include "render/sinks/png_writer.hpp"
#include "render/sinks/sink.hpp"
#include "render/sys/error.hpp"
#include "render/sys/files.hpp"
#include "story/chapter/chapter.hpp"

namespace render {

void render_still(const story::ChapterSpec& chapter, const story::Video& video, double t,
                  const std::string& output, const Fonts& fonts) {
    write_still(story::make_chapter(chapter, video, fonts)->scene_at(t), video, output, fonts);
}

void write_still(const story::Scene& scene, const story::Video& video, const std::string& output,
                 const Fonts& fonts) {
    ensure_parent_dir(output);
    auto sink = make_still_sink(output, fonts);
    if (!sink) throw SystemError("unsupported still " + output + ": use .png, .svg or .pdf");
    sink->begin({output, video.width, video.height, video.fps});
    try {
        sink->write(scene);
        sink->finish();
    } catch (...) {
        sink->abort();
        throw;
    }
}

std::string scene_png(const story::Scene& scene, const story::Video& video, const Fonts& fonts) {
    cairo_surface_t* surface =
        cairo_image_surface_create(CAIRO_FORMAT_ARGB32, video.width, video.height);
    cairo_t* cr = cairo_create(surface);
    paint(cr, scene, fonts, video.width, video.height);
    const cairo_status_t status = cairo_status(cr);
    cairo_destroy(cr);
    if (status) {
        cairo_surface_destroy(surface);
        throw SystemError(std::string("cannot draw: ") + cairo_status_to_string(status));
    }
    try {
        std::string png = encode_png(surface);
        cairo_surface_destroy(surface);
        return png;
    } catch (...) {
        cairo_surface_destroy(surface);
        throw;
    }
}

}  // namespace render
