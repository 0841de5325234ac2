// What the commands take in: storyboard files (or directories of them), loaded with every
// diagnostic printed, narrowed by --only and given their video; nothing is written.
#pragma once
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "render/cli/video_options.hpp"
#include "render/film/film_job.hpp"
#include "render/sys/temp_dir.hpp"
#include "story/storyboard.hpp"

namespace render {

// A storyboard's text parsed and timed (story::load_timed), the voices' speech filled in by
// fill_voice_speech: what every command reads. nullopt when errors were added.
std::optional<story::Storyboard> timed_storyboard(const std::string& text, const std::string& path,
                                                  story::Diagnostics& errors,
                                                  std::vector<story::Diagnostic>& warnings);

// Where narrated storyboards' speech is cached and looked up (<dir>/speech): `out/cache` unless a
// command's --cache set it before loading.
std::string& speech_cache();
// Points speech_cache() at `scratch`, a new temporary directory in the system's temp folder that
// lasts as long as `scratch` (check without a cache, render --no-cache).
void use_scratch_speech_cache(std::optional<TempDir>& scratch);

// Reads a storyboard and times it (timed_storyboard); prints every error and warning to err and
// returns nullopt on an error.
std::optional<story::Storyboard> load_storyboard(const std::string& path, std::ostream& err);

// Storyboard arguments with each directory replaced by the *.yaml files in it, sorted by name.
// Prints an error to err and returns nullopt for a directory without any.
std::optional<std::vector<std::string>> expand_storyboards(const std::vector<std::string>& args,
                                                           std::ostream& err);

// Keeps the chapters named in `only` (comma separated; empty keeps all), in storyboard order.
// Prints "no chapter 'x' in FILE (did you mean 'y'?)" for unknown ids and returns false.
bool select_chapters(story::Storyboard& board, const std::string& only, std::ostream& err);

// Prints "file:line:col: error: chapter 'x' lasts 0.05s, less than one frame at 10 fps ..." for
// every chapter that --fps leaves without a frame; false if there was any.
bool chapters_hold_frames(const story::Storyboard& board, int fps, std::ostream& err);

// Loads each storyboard (directories expanded), keeps the chapters in `only` (before timing:
// the others' lines are not spoken) and resolves its video. Every problem is printed to err;
// returns nullopt if there was any. Outputs stay empty.
std::optional<std::vector<FilmJob>> load_films(const std::vector<std::string>& storyboards,
                                               const std::string& only, const VideoOverrides& video,
                                               std::ostream& err);

}  // namespace render
