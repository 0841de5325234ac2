// The one orchestrator: storyboard files -> chapters -> segments (cached, drawn by a pool of
// workers) -> films assembled by stream copy with chapter markers and captions; and stills.
#pragma once
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "render/av/mp4_sink.hpp"
#include "render/draw/fonts.hpp"
#include "render/film/segment_cache.hpp"
#include "story/storyboard.hpp"

namespace render {

// Reads and parses a storyboard; prints every diagnostic to err and returns nullopt on failure.
std::optional<story::Storyboard> load_storyboard(const std::string& path, std::ostream& err);

// Storyboard arguments with each directory replaced by the *.yaml files in it, sorted by name.
// Prints an error to err and returns nullopt for a directory without any.
std::optional<std::vector<std::string>> expand_storyboards(const std::vector<std::string>& args,
                                                           std::ostream& err);

// Keeps the chapters named in `only` (comma separated; empty keeps all), in storyboard order.
// Prints "no chapter 'x' in FILE (did you mean 'y'?)" for unknown ids and returns false.
bool select_chapters(story::Storyboard& board, const std::string& only, std::ostream& err);

// Quality presets follow Manim; --size and --fps override; otherwise the storyboard's video.
struct VideoOverrides {
    std::string quality;  // "", low, medium, high, 4k
    std::string size;     // "", WxH
    int fps = 0;          // 0: not given
};
// Returns the resolved video, or an error message for a bad preset/size/fps.
std::optional<std::string> resolve_video(const story::Video& authored, const VideoOverrides& o,
                                         story::Video& out);

// Prints "file:line:col: error: chapter 'x' lasts 0.05s, less than one frame at 10 fps ..." for
// every chapter that --fps leaves without a frame; false if there was any.
bool chapters_hold_frames(const story::Storyboard& board, int fps, std::ostream& err);

struct ChapterReport {
    std::string id;
    bool cached = false;  // no frame drawn: found in the cache (or drawn for another film)
    int frames = 0;
    double seconds = 0;
};
struct RenderReport {
    std::string output;  // empty with segment_only
    long long frames_drawn = 0;
    double wall_seconds = 0;
    std::vector<ChapterReport> chapters;
};

struct Progress {
    std::string chapter;
    long long done = 0, total = 0;
};

// One storyboard to render: its chapters already selected, its video resolved.
struct FilmJob {
    story::Storyboard board;
    story::Video video;
    std::string output;
};

// Loads each storyboard (directories expanded), keeps the chapters in `only` and resolves its
// video. Every problem is printed to err; returns nullopt if there was any. Outputs stay empty.
std::optional<std::vector<FilmJob>> load_films(const std::vector<std::string>& storyboards,
                                               const std::string& only, const VideoOverrides& video,
                                               std::ostream& err);

struct BatchOptions {
    int jobs = 1;               // worker threads drawing segments
    std::string cache_dir;      // empty: default_cache_dir(first film's output)
    bool use_cache = true;      // false: draw every segment in a scratch directory; the cache is
                                // neither read nor written
    bool segment_only = false;  // draw missing segments into the cache; assemble nothing
    std::uintmax_t cache_limit = kDefaultCacheLimit;
    EncoderSettings encoder;  // threads fixed, so bytes do not depend on `jobs`
};

// cache/ beside the output (out/cache for the default out/<stem>.mp4).
std::string default_cache_dir(const std::string& output);

// Renders every film. MP4 outputs are assembled from per-chapter segments (cache hits reused,
// misses drawn by `jobs` workers, a key shared by several films drawn once), with one chapter
// marker per chapter and the captions as a mov_text track; other outputs (.webm, .gif, ...) go
// straight through make_sink frame by frame, uncached. Captions go to .vtt and .srt beside each
// output. Throws SystemError (runtime) or Interrupted; finished segments stay in the cache.
std::vector<RenderReport> render_films(const std::vector<FilmJob>& films, const Fonts& fonts,
                                       const BatchOptions& options,
                                       const std::function<void(const Progress&)>& on_progress);

// Chapters of the films whose segments are not in the cache yet, once per key, in order.
struct PendingSegment {
    std::string storyboard, chapter_id;
};
std::vector<PendingSegment> pending_segments(const std::vector<FilmJob>& films, const Fonts& fonts,
                                             const std::string& cache_dir,
                                             const EncoderSettings& encoder = {});

// One frame of one chapter at t seconds, to a PNG, SVG or PDF chosen by extension.
void render_still(const story::ChapterSpec& chapter, const story::Video& video, double t,
                  const std::string& output, const Fonts& fonts);

}  // namespace render
