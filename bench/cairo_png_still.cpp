// Benchmark helper (bench/run.sh, never installed): the work of `shardreel still` for a PNG
// (load the storyboard, draw one frame) but written by Cairo's own PNG writer instead of
// render/sinks/png_writer, the reference that the PNG still's time is given against.
#include <cairo.h>

#include <cstdlib>
#include <iostream>
#include <string>

#include "render/cli/storyboard_inputs.hpp"
#include "render/cli/video_options.hpp"
#include "render/draw/painter.hpp"
#include "story/chapter.hpp"

int main(int argc, char** argv) {
    if (argc != 5) {
        std::cerr << "usage: cairo_png_still STORYBOARD.yaml CHAPTER_ID SECONDS OUT.png\n";
        return 2;
    }
    const auto board = render::load_storyboard(argv[1], std::cerr);
    if (!board) return 2;
    story::Video video;
    if (const auto error = render::resolve_video(board->video, {}, video)) {
        std::cerr << *error << "\n";
        return 2;
    }
    const story::ChapterSpec* chapter = nullptr;
    for (const auto& c : board->chapters)
        if (c.id == argv[2]) chapter = &c;
    if (!chapter) {
        std::cerr << "no chapter " << argv[2] << "\n";
        return 2;
    }
    const render::Fonts fonts(render::default_font_dir());
    const auto scene = story::make_chapter(*chapter, video, fonts)->scene_at(std::atof(argv[3]));
    cairo_surface_t* surface =
        cairo_image_surface_create(CAIRO_FORMAT_ARGB32, video.width, video.height);
    cairo_t* cr = cairo_create(surface);
    render::paint(cr, scene, fonts, video.width, video.height);
    cairo_destroy(cr);
    const cairo_status_t status = cairo_surface_write_to_png(surface, argv[4]);
    cairo_surface_destroy(surface);
    if (status) std::cerr << argv[4] << ": " << cairo_status_to_string(status) << "\n";
    return status ? 1 : 0;
}
