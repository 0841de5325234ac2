// Benchmark helper (bench/run.sh, never installed): writes every frame of a storyboard, drawn
// exactly as `render` draws it, as raw Cairo ARGB32 (ffmpeg's bgra) to a file, for the ffmpeg
// floor; or one frame as `still` draws it, written by Cairo's own PNG writer instead of
// render/sinks/png_writer, the reference that the PNG still's time is given against.
#include <cairo.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "render/draw/painter.hpp"
#include "render/draw/raster.hpp"
#include "render/inputs/storyboard_inputs.hpp"
#include "render/sys/error.hpp"
#include "story/chapter/chapter.hpp"
#include "story/time/film_time.hpp"

namespace {

void dump(const story::Storyboard& board, const story::Video& video, const render::Fonts& fonts,
          std::FILE* out) {
    render::Frame frame;
    frame.width = video.width;
    frame.height = video.height;
    const story::FilmTime time(board.chapters, video.fps);
    for (std::size_t c = 0; c < board.chapters.size(); ++c) {
        const auto chapter = story::make_chapter(board.chapters[c], video, fonts);
        for (int f = 0; f < time.chapter(c).frames; ++f) {
            render::rasterize(chapter->scene_at(time.seconds(f)), fonts, frame);
            if (std::fwrite(frame.data.data(), 1, frame.data.size(), out) != frame.data.size())
                throw render::SystemError("cannot write raw frames");
        }
    }
}

int dump_frames(const story::Storyboard& board, const story::Video& video, const char* path) {
    std::FILE* out = std::fopen(path, "wb");
    if (!out) {
        std::perror(path);
        return 1;
    }
    try {
        dump(board, video, render::Fonts(render::default_font_dir()), out);
    } catch (const render::SystemError& e) {
        std::cerr << "dump_frames: " << e.what() << "\n";
        std::fclose(out);
        return 1;
    }
    std::cout << video.width << "x" << video.height << " " << video.fps << "\n";
    return std::fclose(out) == 0 ? 0 : 1;
}

// The work of `still ... -o path` (a fresh ARGB32 surface, the painter), then Cairo's writer.
int cairo_png(const story::Storyboard& board, const story::Video& video, const std::string& id,
              double t, const char* path) {
    const story::ChapterSpec* chapter = nullptr;
    for (const auto& c : board.chapters)
        if (c.id == id) chapter = &c;
    if (!chapter) {
        std::cerr << "dump_frames: no chapter " << id << "\n";
        return 2;
    }
    const render::Fonts fonts(render::default_font_dir());
    const auto scene = story::make_chapter(*chapter, video, fonts)->scene_at(t);
    cairo_surface_t* surface =
        cairo_image_surface_create(CAIRO_FORMAT_ARGB32, video.width, video.height);
    cairo_t* cr = cairo_create(surface);
    render::paint(cr, scene, fonts, video.width, video.height);
    cairo_destroy(cr);
    const cairo_status_t status = cairo_surface_write_to_png(surface, path);
    cairo_surface_destroy(surface);
    if (status)
        std::cerr << "dump_frames: " << path << ": " << cairo_status_to_string(status) << "\n";
    return status ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3 && argc != 5) {
        std::cerr << "usage: dump_frames STORYBOARD.yaml OUT.bgra\n"
                     "       dump_frames STORYBOARD.yaml OUT.png CHAPTER_ID SECONDS\n";
        return 2;
    }
    const auto board = render::load_storyboard(argv[1], std::cerr);
    if (!board) return 2;
    story::Video video;
    if (const auto error = render::resolve_video(board->video, {}, video)) {
        std::cerr << *error << "\n";
        return 2;
    }
    if (argc == 5) return cairo_png(*board, video, argv[3], std::atof(argv[4]), argv[2]);
    return dump_frames(*board, video, argv[2]);
}
