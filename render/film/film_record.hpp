// A film's record: the key of what its MP4 was last assembled from (film_key.hpp), the files
// that assembly wrote (the MP4 and its caption files) as they stood once written, and the
// segments it joined; in <cache>/films/<XXH3-128 of the output's absolute path>.json. A render
// with nothing changed that finds the very files its record names neither looks a segment up
// nor joins the film again. No libav: `render` reads records before it loads the video module.
#pragma once
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "render/film/director.hpp"
#include "render/film/film_key.hpp"

namespace render {

// MP4 films are assembled from cached per-chapter segments; other outputs are drawn directly.
bool assembled_from_segments(const std::string& output);

// Whether a render with `options` keeps a record of `film`, and so may find it unchanged: an MP4
// assembled through the cache (not --no-cache, --segment-only or --audio-only).
bool keeps_record(const FilmJob& film, const BatchOptions& options);

// Marks a cache entry, <dir>/<name> and its record <dir>/<name's stem>.json, as just used:
// pruning goes by last use.
void touch_entry(const std::string& dir, const std::string& name);

// A film found as its record left it.
struct KeptFilm {
    RenderReport report;             // every chapter cached, no frame drawn
    std::set<std::string> segments;  // the keys of the segments it was joined from
};

// The film, when its record (in cache_dir) holds `key` and each file it names is the one the
// assembly wrote: the same device, inode, size, modification and change times (a file edited,
// cut short, touched or replaced has another change time, which no program can set back); and
// the same XXH3-128 where the record was written within the clock tick of the file's last
// change (then a change in that tick would keep its times; the record is written again when the
// bytes match). Its segments are touched, as lookups touch them. nullopt otherwise.
std::optional<KeptFilm> unchanged_film(const FilmJob& film, const FilmKey& key,
                                       const std::string& cache_dir);

// A film's key, where the render keeps its record (none either when a cue or the music cannot
// be read), and the film as kept when its record finds it unchanged.
struct FilmState {
    std::optional<FilmKey> key;
    std::optional<KeptFilm> kept;
};
// Each film's state under `options`, its record read from cache_dir; muted[i]: film i has no
// sound, whatever its storyboard plays (--no-audio).
std::vector<FilmState> film_states(const std::vector<FilmJob>& films, const Fonts& fonts,
                                   const BatchOptions& options, const std::string& cache_dir,
                                   const std::vector<bool>& muted);

// Records that `film` was just assembled from `segments` (file names in cache_dir, pictures' and
// sound's) into `files` (its output, then its caption files), under `key`. A record that cannot
// be written is left out: the next render assembles the film again.
void record_film(const FilmJob& film, const FilmKey& key, const std::vector<std::string>& files,
                 const std::vector<std::string>& segments, const std::string& cache_dir);

}  // namespace render
