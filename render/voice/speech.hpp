// Narration's speech, for the timing and the mixer: every line a voice speaks, taken from the
// speech cache (<cache>/speech, speech_cache.hpp) or, on a miss, spoken by the voice module and
// stored there.
#pragma once
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "story/storyboard/storyboard.hpp"

namespace render {

// Fills Beat::speech of every beat with `say:` text whose chapter's narration is not off (beats
// in file order, as the loader leaves them; takes are found relative to the storyboard's folder),
// the lines missing from the cache spoken `workers` at once, by worker processes forked once (0:
// one per core). Prints every problem as file:line:col: error (an unknown voice with the engine's
// voices and a did-you-mean; a take that is missing, unreadable, ambiguous or not audio) to err and
// returns false. Throws SystemError when the module cannot be loaded, an engine fails or the cache
// cannot be written, and Interrupted when the process is signalled. The caller must be the
// process's only thread (render/sys/children.hpp says why).
bool fill_speech(story::Storyboard& board, const std::string& cache_dir, std::ostream& err,
                 int workers = 0);
// The same, adding the problems to diags instead of printing them.
bool fill_speech(story::Storyboard& board, const std::string& cache_dir, story::Diagnostics& diags,
                 int workers = 0);

// A spoken line's PCM in the speech cache: 48 kHz mono float, little-endian.
struct SpeechLine {
    std::string key;   // Speech::key: changes whenever the line's sound does
    std::string path;  // <cache>/speech/<key>.f32
    double seconds = 0;
};

// The line of a beat fill_speech spoke; nullopt when no voice speaks it (no text, narration off).
std::optional<SpeechLine> speech_line(const story::Beat& beat, const std::string& cache_dir);

}  // namespace render
