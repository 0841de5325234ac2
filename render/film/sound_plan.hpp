// The films' sound in the segment cache: one AAC segment per chapter, keyed by what plays in its
// window of the mix (so a changed line re-encodes the chapters that hear it, and nothing else),
// and the missing ones encoded.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "render/film/film_job.hpp"
#include "render/film/segment_cache.hpp"
#include "render/sound/aac_segment.hpp"
#include "render/sys/cancel.hpp"

namespace render {

// Outputs whose sound is joined from segments: .mp4 films and .m4a sound tracks.
bool sound_from_segments(const std::string& output);

// One chapter's sound segment.
struct PlannedSound {
    std::size_t film = 0, chapter = 0;
    AacWindow window;
    SegmentKey key;
    bool cached = false;  // hit, or encoded for an earlier film in this run
    double seconds = 0;
};

// What the segment plays: the window's samples and frames, the clips heard in it (warm-up
// included) with their positions and digests, the music's digest and level (and the film's
// length when the window hears the fade-out), the encoder and mixer settings and the digest of
// the code that mixes and encodes it (render/sound, render/av: the sound digest, never the
// drawing digest). Never the chapter's id, its picture or anything outside the window.
SegmentKey sound_key(const FilmAudio& sound, const AacWindow& window);

// The sound segments of every film with sound whose output takes segments, in film and chapter
// order. Throws SystemError when a film's sound is not on its video's clock.
std::vector<PlannedSound> plan_sound(const std::vector<FilmJob>& films);

// The film's segments in order, as concat takes them.
std::vector<const PlannedSound*> film_sound(const std::vector<PlannedSound>& planned,
                                            std::size_t film);

// Encodes and commits every miss on `workers` threads. The first failure (SystemError naming
// the chapter and storyboard) stops the rest, as `cancel` does; finished segments stay.
void encode_sound(const std::vector<PlannedSound*>& misses, const std::vector<FilmJob>& films,
                  const SegmentCache& cache, int workers, const CancelToken& cancel);

}  // namespace render
