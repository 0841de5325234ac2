// The one orchestrator: films -> chapters planned against the segment cache -> missing segments
// drawn by a pool of workers -> films assembled with chapter markers and captions (or drawn
// directly when not MP4). Each step lives in its own file beside this one.
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "render/draw/fonts.hpp"
#include "render/film/film_job.hpp"
#include "render/film/segment_cache.hpp"
#include "render/sinks/video/mp4_sink.hpp"
#include "render/sys/cancel.hpp"

namespace render {

struct BatchOptions {
    int jobs = 1;               // worker threads drawing segments
    std::string cache_dir;      // empty: default_cache_dir(first film's output)
    bool use_cache = true;      // false: draw every segment in a scratch directory; the cache is
                                // neither read nor written
    bool segment_only = false;  // draw missing segments into the cache; assemble nothing
    std::uintmax_t cache_limit = kDefaultCacheLimit;
    EncoderSettings encoder;     // threads fixed, so bytes do not depend on `jobs`
    bool sound_only = false;     // outputs are .m4a (from sound segments) or .wav: no picture
    bool measure_sound = false;  // report each output's loudness and true peak (decodes it)
    ChapterCode code;            // what makes chapters, and its digest in their first keys
};

// cache/ beside the output (out/cache for the default out/<stem>.mp4).
inline std::string default_cache_dir(const std::string& output) {
    return (std::filesystem::path(output).parent_path() / "cache").string();
}

// Renders every film. MP4 outputs are assembled from per-chapter segments (cache hits reused,
// misses drawn by `jobs` workers, a key shared by several films drawn once), with one chapter
// marker per chapter, the captions as a mov_text track and the film's sound (FilmJob::sound) as
// AAC joined from per-chapter sound segments of the cache; other outputs (.webm with Opus sound,
// .gif, ...) go straight through make_sink frame by frame, uncached. Captions go to .vtt and .srt
// beside each output. With sound_only, each film's sound alone goes to its output (.m4a, .wav).
// --segment-only draws pictures only (sound is placed on whole films, which workers of `jobs`
// never see). Throws SystemError (runtime), or Interrupted once `cancel` is tripped (the
// process's token: a signal); finished segments stay in the cache, partial outputs are removed.
std::vector<RenderReport> render_films(const std::vector<FilmJob>& films, const Fonts& fonts,
                                       const BatchOptions& options, const CancelToken& cancel,
                                       const std::function<void(const Progress&)>& on_progress);

}  // namespace render
