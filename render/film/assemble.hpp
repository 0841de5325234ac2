// Assembly: a film's cached segments joined by stream copy into its MP4, with one chapter marker
// per chapter, the captions as a track and as files beside it, and its sound; or its sound alone.
#pragma once
#include <vector>

#include "render/film/film_job.hpp"
#include "render/film/plan.hpp"
#include "render/film/segment_cache.hpp"
#include "render/film/sound_plan.hpp"
#include "render/sys/cancel.hpp"

namespace render {

// `chapters` are the film's planned chapters in order, their segments in the cache; `sound` the
// film's sound segments likewise (empty: a silent film). Returns the files written: the output,
// then its caption files.
std::vector<std::string> assemble(const FilmJob& film, const std::vector<const Planned*>& chapters,
                                  const std::vector<const PlannedSound*>& sound,
                                  const SegmentCache& cache);

// The film's sound alone, with a chapter marker per chapter: an .m4a joined from its sound
// segments, or a .wav of the mix made afresh (polling cancel).
void assemble_sound(const FilmJob& film, const std::vector<const PlannedSound*>& sound,
                    const SegmentCache& cache, const CancelToken& cancel);

}  // namespace render
