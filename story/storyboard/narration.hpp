// What a storyboard says about sound: the narrating voice (per film, overridable per chapter),
// the music under the film, and what the voice's speech tells the timing (seconds and marks).
// Plain data; synthesis and mixing live in render/audio/.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "story/storyboard/diagnostics.hpp"

namespace story {

enum class VoiceEngine { off, espeak, festival, open_jtalk, recorded };

// `pronounce: {ja: {NVLink: エヌブイリンク}}`: how the voice says a word the caption writes.
struct Reading {
    std::string word, reading;
    bool operator==(const Reading&) const = default;
};

// `narration:` — `off`, a voice such as `espeak-ng:en-us`, `festival:cmu_us_slt_arctic_hts` or
// `open-jtalk:nitech-jp-atr503-m001` (Japanese only), or `recorded` with `takes: DIR` (one file per
// beat, `<chapter>-<n>.<ext>`, n from 1).
struct Narration {
    VoiceEngine engine = VoiceEngine::off;
    std::string voice;  // the engine's voice name ("en-us"); empty for off and recorded
    int wpm = 0;        // speaking rate in words per minute; 0: the engine's default
    std::string takes;  // recorded: the takes folder, relative to the storyboard's folder
    double gap = 0.35;  // seconds of pause an `at: after` beat leaves after the speech before it
    double tail = 1.0;  // seconds a `duration: auto` chapter runs past its last speech
    SourcePos pos;      // where the voice was given (a voice's errors are reported there)
    std::vector<Reading> readings;  // the film's language's `pronounce:`, longest word first
    bool operator==(const Narration&) const = default;
};

// `[[name]]` in a `say:` bookmarks the word after it; `at: mark:name` starts a beat there.
struct Bookmark {
    std::string name;
    std::size_t offset = 0;  // byte offset into Beat::say (bookmarks removed) of the next word
    bool operator==(const Bookmark&) const = default;
};

// A line as the voice is given it: each word with a reading replaced by it (the longest word
// first; a word of ASCII letters and digits only whole, not inside a longer one, while
// "重み" matches wherever it stands, as Japanese has no spaces), and each bookmark moved with
// the text before it. The caption keeps the words as written.
struct VoicedLine {
    std::string text;
    std::vector<std::size_t> marks;  // byte offsets into text, one per bookmark
};
VoicedLine voiced_line(const std::string& say, const std::vector<Bookmark>& marks,
                       const std::vector<Reading>& readings);

// `music:` under the whole film.
struct Music {
    std::string file;    // relative to the storyboard's folder; empty: none
    double level = -20;  // dB, relative to full scale before ducking
    SourcePos pos;
    bool operator==(const Music&) const = default;
};

// One beat's speech as the voice speaks it: how long, and where each bookmark falls.
struct Speech {
    double seconds = 0;
    std::vector<double> marks;  // seconds from the speech start, one per Beat::marks entry
    std::string key;  // the line's PCM in the speech cache (render/voice); empty for an estimate
    bool operator==(const Speech&) const = default;
};

}  // namespace story
