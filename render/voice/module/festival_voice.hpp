// Festival through libFestival (its HTS voices, cmu_us_slt_arctic_hts: clearly better English
// than espeak-ng, ~0.1 s per second of speech); bookmarks timed by the words' first phones.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "render/voice/module/raw_speech.hpp"

namespace render::voice {

// Festival's interpreter is one global state: one instance per process, used by one thread.
class Festival {
  public:
    Festival();  // loads Festival's init files; throws std::runtime_error
    Festival(const Festival&) = delete;
    Festival& operator=(const Festival&) = delete;

    // The installed voices (voice.list), sorted.
    const std::vector<std::string>& voices() const { return voices_; }
    // wpm 0: the voice's own pace, taken as 170 words per minute for the speed ratio.
    RawSpeech speak(const std::string& voice, int wpm, const std::string& text,
                    const std::vector<std::size_t>& marks);

  private:
    void select(const std::string& voice);
    std::vector<std::string> voices_;
    std::string voice_;  // the one selected
};

}  // namespace render::voice
