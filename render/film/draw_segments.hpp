// Drawing the segments the cache misses: one chapter per task on a pool of workers, each through
// its own MP4 sink into the cache.
#pragma once
#include <functional>
#include <vector>

#include "render/draw/fonts.hpp"
#include "render/film/film_job.hpp"
#include "render/film/plan.hpp"
#include "render/film/segment_cache.hpp"
#include "render/sinks/video/mp4_sink.hpp"
#include "render/sys/cancel.hpp"

namespace render {

// Draws and commits every miss on `jobs` workers, recording each one's seconds. The first failure
// (SystemError naming the chapter and storyboard) stops the rest, as `cancel` does (Interrupted);
// finished segments stay.
void draw_segments(const std::vector<Planned*>& misses, const std::vector<FilmJob>& films,
                   const SegmentCache& cache, const Fonts& fonts, int jobs,
                   const EncoderSettings& encoder, const CancelToken& cancel,
                   const std::function<void(const Progress&)>& on_progress);

}  // namespace render
