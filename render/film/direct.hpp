// The direct path: outputs that are not MP4 (.webm, .gif, PNG sequences, ...) drawn frame by
// frame through make_sink, without segments or the cache.
#pragma once
#include <functional>

#include "render/draw/fonts.hpp"
#include "render/film/film_job.hpp"
#include "render/sys/cancel.hpp"

namespace render {

// Draws the film into its output and writes its captions beside it. Throws SystemError, or
// Interrupted once `cancel` is tripped, leaving no partial output.
RenderReport render_direct(const FilmJob& film, const Fonts& fonts, const CancelToken& cancel,
                           const std::function<void(const Progress&)>& on_progress);

}  // namespace render
