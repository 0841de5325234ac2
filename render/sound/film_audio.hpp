// What a timed storyboard sounds like, as the mixer takes it: each spoken line at its beat's
// film frame, each `sound:` cue likewise, the `music:` under the whole film, with the files
// checked (readable, audio, long enough) before anything is rendered.
#pragma once
#include <cstddef>
#include <functional>
#include <optional>
#include <string>

#include "render/sound/audio_mix.hpp"
#include "story/storyboard/diagnostics.hpp"
#include "story/storyboard/storyboard.hpp"

namespace render {

// A beat's line as the voice speaks it: a file of the speech cache (raw 48 kHz mono float,
// `.f32`, or any sound file) and what identifies it (the speech key).
struct SpokenLine {
    std::string path, digest;
};
// The line spoken at beat `beat` of chapter `chapter` (indices into the timed storyboard), if
// any.
using SpeechLookup =
    std::function<std::optional<SpokenLine>(std::size_t chapter, std::size_t beat)>;

// The sound of a timed storyboard on the clock of fps, or nothing when nothing sounds (a silent
// film). `speech` may be empty (no voice). Bad files are errors in diags at the key's
// file:line:col (a sound or music file that cannot be read or is not audio, music shorter than
// the film: music is never looped); then the result is meaningless.
std::optional<FilmAudio> film_audio(const story::Storyboard& board, int fps,
                                    const SpeechLookup& speech, story::Diagnostics& diags);

}  // namespace render
