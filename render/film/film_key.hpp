// What a film is made from, named without making it: each chapter's first key (what the chapter
// is made from) and the film's key (its chapters' first keys in order and what else its MP4 and
// caption files are assembled from). Computed from the loaded storyboard alone, with no libav:
// `render` computes them before it loads the video module.
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "render/draw/fonts.hpp"
#include "render/film/film_job.hpp"
#include "render/sinks/video/mp4_sink.hpp"
#include "story/chapter/chapter.hpp"
#include "story/storyboard/storyboard.hpp"

namespace render {

// The digest cmake/drawing_digest.cmake took at build time of the code that makes chapters and
// their keys (story/, engine/, render/film) and of the compiler and flags that built it.
std::string built_code_digest();

// The XXH3-128 of locale/<lang>.po the build embedded, or "" (English: no catalogue).
std::string catalogue_digest(const std::string& lang);

// The code chapters are made by, and its digest in every first key: the build's own. A test
// presents other code under another digest.
struct ChapterCode {
    using Make = std::function<std::unique_ptr<story::Chapter>(
        const story::ChapterSpec&, const story::Video&, const story::TextMetrics&)>;
    std::string digest = built_code_digest();
    Make make = story::make_chapter;
};

// A first key: the XXH3-128 of everything the chapter is made from, resolved: its spec (its
// settings over the storyboard's defaults, its beats timed by the narration, with their lines'
// speech, its duration, title and narration; render/film/chapter_fields.hpp lists every member,
// all but where they stand in the file), the film's video (size, fps, theme, captions, voice,
// music, language), the encoder settings, the fonts, the language's message catalogue and the
// digests of the drawing code and of the chapter code. Computed without making the chapter;
// equal first keys give equal scenes, so the segment key one found stands for the other.
struct FirstKey {
    std::string key;     // 32 hex digits: XXH3-128 of `inputs`
    std::string inputs;  // canonical JSON text (sorted keys), stored in its record
};
FirstKey first_key(const story::ChapterSpec& spec, const story::Video& video,
                   const EncoderSettings& encoder, const Fonts& fonts,
                   const std::string& code_digest);

// A film's key: the XXH3-128 of what its MP4 and caption files are assembled from, so that equal
// keys give equal files: its chapters' first keys in order (their segments, and the times, titles
// and lines of the chapter markers and captions), the storyboard's own video, the storyboard in
// each other language it is captioned in (`--captions all`), what its sound plays (nothing when
// `muted`; else each beat's line by its speech key and cue by its file's XXH3-128, in beat order,
// then the music's: where the first keys place them), its output's absolute path (beside which
// the captions go) and the digests of the code that
// draws, mixes, joins and names it (drawing, sound, container and code: render/film). nullopt when
// a cue or the music cannot be read, or when film.sound plays other files than the storyboard (a
// sound not made by add_sound from it: no key stands for it).
struct FilmKey {
    std::string key;     // 32 hex digits: XXH3-128 of `inputs`
    std::string inputs;  // canonical JSON text (sorted keys), stored in the film's record
    bool sound = false;  // the film has a sound track
};
std::optional<FilmKey> film_key(const FilmJob& film, const Fonts& fonts,
                                const EncoderSettings& encoder, const std::string& code_digest,
                                bool muted);

}  // namespace render
