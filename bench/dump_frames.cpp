// Benchmark helper (bench/run.sh, never installed): writes every frame of a storyboard, drawn
// exactly as `render` draws it, as raw Cairo ARGB32 (ffmpeg's bgra) to a file, for the ffmpeg
// floor.
#include <cstdio>
#include <iostream>
#include <string>

#include "render/cli/storyboard_inputs.hpp"
#include "render/draw/raster.hpp"
#include "render/sys/error.hpp"
#include "story/chapter.hpp"
#include "story/film_time.hpp"

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

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: dump_frames STORYBOARD.yaml OUT.bgra\n";
        return 2;
    }
    const auto board = render::load_storyboard(argv[1], std::cerr);
    if (!board) return 2;
    story::Video video;
    if (const auto error = render::resolve_video(board->video, {}, video)) {
        std::cerr << *error << "\n";
        return 2;
    }
    std::FILE* out = std::fopen(argv[2], "wb");
    if (!out) {
        std::perror(argv[2]);
        return 1;
    }
    try {
        dump(*board, video, render::Fonts(render::default_font_dir()), out);
    } catch (const render::SystemError& e) {
        std::cerr << "dump_frames: " << e.what() << "\n";
        std::fclose(out);
        return 1;
    }
    std::cout << video.width << "x" << video.height << " " << video.fps << "\n";
    return std::fclose(out) == 0 ? 0 : 1;
}
