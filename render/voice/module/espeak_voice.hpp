// espeak-ng through libespeak-ng (synchronous, 22.05 kHz): ~140 voices, a sentence in
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
    // Speaks, changing the library's state: in a line's child (child.hpp). wpm 0: espeak-ng's
    // default of 175.
    RawSpeech speak(const std::string& voice, int wpm, const std::string& text,
                    const std::vector<std::size_t>& marks) const;

  private:
    int rate_ = 0;
    std::vector<std::string> voices_;
};

}  // namespace render::voice
