// Cache planning: every chapter of the films that are assembled from segments, with its segment
// key and whether that segment must be drawn.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "render/draw/fonts.hpp"
#include "render/film/film_job.hpp"
#include "render/film/film_record.hpp"
#include "render/film/segment_cache.hpp"
#include "render/sinks/video/mp4_sink.hpp"
#include "render/sys/cancel.hpp"
#include "story/chapter/chapter.hpp"

namespace render {

// A chapter of one film, its key, and whether its segment must be drawn.
struct Planned {
    std::size_t film = 0;
    const story::ChapterSpec* spec = nullptr;
    std::unique_ptr<story::Chapter> chapter;  // made unless its first key's record gave the key
    FirstKey first;
    SegmentKey key;
    int frames = 0;         // the chapter's length on the film's clock
    bool recorded = false;  // key and valid segment found through the first key: no scene built
    bool cached = false;    // hit, or drawn for an earlier film in this run
    double seconds = 0;
};

// The chapters of the films `taken` marks (one flag a film), in order, each with its first key.
// When read_records, a first key whose record names a valid segment gives its key (and the
// chapter is cached); every other chapter is made and keyed by its scenes, in parallel (each key
// hashes every frame's scene). Stops when cancel trips.
std::vector<Planned> plan_chapters(const std::vector<FilmJob>& films,
                                   const std::vector<bool>& taken, const Fonts& fonts,
                                   const EncoderSettings& encoder, const ChapterCode& code,
                                   const SegmentCache& cache, bool read_records,
                                   const CancelToken& cancel);

// Records each first key of a chapter keyed by its scenes, now that its segment is in the cache.
void record_first_keys(const std::vector<Planned>& planned, const SegmentCache& cache);

// Looks every key not yet cached up once, in parallel (a cached one is only marked as used);
// returns the entries whose segments must be made (the first of each key). For Planned (video)
// and PlannedSound (render/film/sound_plan.hpp).
template <class P>
std::vector<P*> find_misses(std::vector<P>& planned, const SegmentCache& cache, bool read_cache,
                            const CancelToken& cancel);

// Chapters of the films whose segments are not in the cache yet, once per key, in order.
struct PendingSegment {
    std::string storyboard, chapter_id, lang;  // lang: the film's language (video.lang)
    std::size_t film = 0;                      // which of the films it is first drawn for
};
std::vector<PendingSegment> pending_segments(const std::vector<FilmJob>& films, const Fonts& fonts,
                                             const std::string& cache_dir,
                                             const EncoderSettings& encoder = {},
                                             const ChapterCode& code = {});

}  // namespace render
