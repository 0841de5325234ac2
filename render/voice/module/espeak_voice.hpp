// espeak-ng through libespeak-ng (synchronous, 22.05 kHz): ~130 voices, a sentence in
// milliseconds; bookmarks become SSML <mark/>s, whose events carry their times.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "render/voice/module/raw_speech.hpp"

namespace render::voice {

class Espeak {
  public:
    Espeak();  // initialises the library once per process; throws std::runtime_error
    Espeak(const Espeak&) = delete;
    Espeak& operator=(const Espeak&) = delete;

    // Each voice's file name and the languages it speaks ("en-us", "en-gb", "fr"...), sorted.
    const std::vector<std::string>& voices() const { return voices_; }
    // wpm 0: espeak-ng's default of 175. The library carries state from one line to the next
    // (function statics such as its pitch flutter's phase: a line spoken after another came out a
    // few samples longer), so each line is spoken in a child forked from the state
    // espeak_Initialize left, the same for every line in every process, and sent back by pipe.
    RawSpeech speak(const std::string& voice, int wpm, const std::string& text,
                    const std::vector<std::size_t>& marks);

  private:
    std::string speak_here(const std::string& voice, int wpm, const std::string& text,
                           const std::vector<std::size_t>& marks) const;
    int rate_ = 0;
    std::vector<std::string> voices_;
};

}  // namespace render::voice
