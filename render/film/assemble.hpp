// Assembly: a film's cached segments joined by stream copy into its MP4, with one chapter marker
// per chapter and the captions as a track and as files beside it.
#pragma once
#include <vector>

#include "render/film/film_job.hpp"
#include "render/film/plan.hpp"
#include "render/film/segment_cache.hpp"

namespace render {

// `chapters` are the film's planned chapters in order, their segments in the cache.
void assemble(const FilmJob& film, const std::vector<const Planned*>& chapters,
              const SegmentCache& cache);

}  // namespace render
