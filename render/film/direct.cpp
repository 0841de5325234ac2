// The direct path; see direct.hpp.
#include "render/film/direct.hpp"

#include "render/film/captions.hpp"
#include "render/film/frame_loop.hpp"
#include "render/sinks/video/make_sink.hpp"
#include "render/sys/files.hpp"
#include "render/sys/stopwatch.hpp"
#include "story/chapter/chapter.hpp"
#include "story/time/film_time.hpp"

namespace render {

RenderReport render_direct(const FilmJob& film, const Fonts& fonts, const CancelToken& cancel,
                           const std::function<void(const Progress&)>& on_progress) {
    const Stopwatch watch;
    ensure_parent_dir(film.output);
    const story::FilmTime time(film.board.chapters, film.video.fps);
    FrameCounter counter(time.frames(), on_progress);

    RenderReport report{film.output, 0, 0, {}};
    CaptionFiles captions(film, time);
    auto sink = make_sink(film.output, fonts, film.sound ? &*film.sound : nullptr);
    sink->begin({film.output, film.video.width, film.video.height, film.video.fps, &cancel});
    try {
        for (std::size_t i = 0; i < film.board.chapters.size(); ++i) {
            const story::ChapterSpec& spec = film.board.chapters[i];
            const int frames = time.chapter(i).frames;
            const Stopwatch chapter_watch;
            const auto chapter = story::make_chapter(spec, film.video, fonts);
            draw_frames(*sink, *chapter, spec.id, frames, film.video.fps, counter, cancel);
            report.chapters.push_back({spec.id, false, frames, chapter_watch.seconds()});
            report.frames_drawn += frames;
        }
        sink->finish();
    } catch (...) {
        sink->abort();
        throw;
    }
    captions.commit();
    report.wall_seconds = watch.seconds();
    return report;
}

}  // namespace render
