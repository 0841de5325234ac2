// Drawing missing segments; see draw_segments.hpp.
#include "render/film/draw_segments.hpp"

#include "render/film/frame_loop.hpp"
#include "render/sys/error.hpp"
#include "render/sys/parallel.hpp"
#include "render/sys/stopwatch.hpp"

namespace render {

void draw_segments(const std::vector<Planned*>& misses, const std::vector<FilmJob>& films,
                   const SegmentCache& cache, const Fonts& fonts, int jobs,
                   const EncoderSettings& encoder, const CancelToken& cancel,
                   const std::function<void(const Progress&)>& on_progress) {
    long long total = 0;
    for (const Planned* p : misses) total += p->frames;
    FrameCounter counter(total, on_progress);
    run_parallel(jobs, misses.size(), cancel, [&](std::size_t i, const CancelToken& batch) {
        Planned& p = *misses[i];
        const Stopwatch watch;
        const story::Video& video = films[p.film].video;
        try {
            Mp4Sink sink(fonts, encoder);  // aborts (removes its temporary file) on throw
            sink.begin({cache.segment_path(p.key), video.width, video.height, video.fps, &batch});
            draw_frames(sink, *p.chapter, p.spec->id, p.frames, video.fps, counter, batch);
            sink.finish();
            cache.commit(p.key);
        } catch (const SystemError& e) {
            throw SystemError(std::string(e.what()) + " (the segment of chapter '" + p.spec->id +
                              "' of " + films[p.film].board.file + ")");
        }
        p.seconds += watch.seconds();
    });
}

}  // namespace render
