// What the commands take in: storyboard files (or directories of them), loaded with every
// diagnostic printed, narrowed by --only and given their video; nothing is written.
#pragma once
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "render/film/film_job.hpp"
#include "render/inputs/video_options.hpp"
#include "render/sys/temp_dir.hpp"
#include "story/load/load.hpp"
#include "story/storyboard/storyboard.hpp"

namespace render {

// A storyboard's parsed text resolved in `lang` (empty: its own language) and timed
// (story::load_timed), the voices' speech filled in by fill_voice_speech: what every command
// reads. nullopt when errors were added.
std::optional<story::Storyboard> timed_storyboard(const story::ParsedStoryboard& parsed,
                                                  story::Diagnostics& errors,
                                                  std::vector<story::Diagnostic>& warnings,
                                                  const std::string& lang = "");

// Where narrated storyboards' speech is cached and looked up (<dir>/speech): `out/cache` unless a
// command's --cache set it before loading.
std::string& speech_cache();
// Points speech_cache() at `scratch`, a new temporary directory in the system's temp folder that
// lasts as long as `scratch` (check without a cache, render --no-cache).
void use_scratch_speech_cache(std::optional<TempDir>& scratch);

// `--lang` (issue 18): the languages a command renders. None given: the storyboard's own, to
// today's output names; otherwise these tags, or every language the storyboard lists.
struct LanguageChoice {
    std::vector<std::string> tags;  // canonical BCP-47 tags
    bool all = false;
    bool given() const { return all || !tags.empty(); }
};

// --lang's value: "de,ar" or "all" (`single`: one tag only, for the commands that write one
// output). Prints the error and returns nullopt for a bad or unknown tag.
std::optional<LanguageChoice> parse_languages(const std::string& value, bool single,
                                              std::ostream& err);

// The one language a single-output command was given; empty for none (the storyboard's own).
std::string single_language(const LanguageChoice& langs);

// The outputs' base name: out/<stem>, or out/<stem>.<lang> when a language was asked for.
std::string output_stem(const std::string& storyboard, const LanguageChoice& langs,
                        const std::string& lang);

// Reads and parses a storyboard and times it (timed_storyboard) in `lang` (empty: its own
// language); prints every error and warning to err and returns nullopt on an error.
std::optional<story::Storyboard> load_storyboard(const std::string& path, std::ostream& err,
                                                 const std::string& lang = "");

// The storyboard in every language it lists but the film's, resolved from the text the film was
// parsed from (not timed: the lines that caption the film at its own beats, `--captions all`);
// nullopt after printing an error.
std::optional<std::vector<story::Storyboard>> other_languages(const story::ParsedStoryboard& parsed,
                                                              const story::Storyboard& film,
                                                              std::ostream& err);

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

// Loads each storyboard (directories expanded) in each language of `langs`, one film each (the
// storyboard's own language when none is given), keeps the chapters in `only` (before timing:
// the others' lines are not spoken) and resolves its video; with `captions_all`, each film's
// caption_languages too (`--captions all`). Each file is read and parsed once, whatever the
// number of languages. Every problem is printed to err; returns nullopt if there was any.
// Outputs stay empty.
std::optional<std::vector<FilmJob>> load_films(const std::vector<std::string>& storyboards,
                                               const std::string& only, const VideoOverrides& video,
                                               std::ostream& err, const LanguageChoice& langs = {},
                                               bool captions_all = false);

}  // namespace render
