// The narrated film the sound tests render (film_sound_test, sound_segments_test): 17 s at 15 fps,
// three chapters, five speech-like lines (generated here, as the speech cache would hold them)
// at their beats, rendered through render_films, the director's entry point.
#pragma once
#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "render/draw/fonts.hpp"
#include "render/film/director.hpp"

namespace narrated_film {

inline constexpr double kRate = 48000;

// 17 s at 15 fps: lines at 0.3 s; 0.3, 3.5 and 6 s; 0.5 s (chapter times). "Three." is heard
// by no neighbour's sound segment (docs/commands/voices.md "Sound": more than 5.1 s before the seam
// after it, more than 0.5 s after the one before).
extern const char* const kStoryboard;

// Each line's film start and length in seconds, in the order above.
struct Line {
    double start, seconds;
};
extern const std::vector<Line> kLines;

const render::Fonts& fonts();

// The storyboard at dir/sound.yaml, its lines in dir/speech/ (`seeds` picks each line's
// sound), made into a film job with output `output`.
render::FilmJob narrated(const std::filesystem::path& dir, const std::string& output,
                         const std::vector<unsigned>& seeds = {1, 2, 3, 4, 5});

// The film rendered through the cache folder with `jobs` workers (its sound alone with
// sound_only), its sound measured.
render::RenderReport render_one(const render::FilmJob& film, const std::filesystem::path& cache,
                                int jobs = 1, bool sound_only = false);

// Whether each chapter's sound segment was found in the cache, by chapter id.
std::map<std::string, bool> sound_cached(const render::RenderReport& r);

// The names of dir's files with extension ext.
std::set<std::string> files_with(const std::filesystem::path& dir, const std::string& ext);

// An RMS as dBFS; a film time in seconds as a sample index.
double db(double rms);
std::int64_t at(double seconds);

}  // namespace narrated_film
