// Festival through libFestival (its HTS voices, cmu_us_slt_arctic_hts: clearly better English
// than espeak-ng, ~0.1 s per second of speech); bookmarks timed by the words' first phones.
#pragma once
#include <cstddef>
#include <mutex>
#include <string>
#include <vector>

#include "render/voice/module/raw_speech.hpp"

namespace render::voice {

// Festival's interpreter is one global state: one instance per process, entered under one lock.
class Festival {
  public:
    Festival();  // loads Festival's init files; throws std::runtime_error
    Festival(const Festival&) = delete;
    Festival& operator=(const Festival&) = delete;

    // The installed voices (voice.list), sorted.
    const std::vector<std::string>& voices() const { return voices_; }
    // Selects the voice (when another was), then speaks in a child process (child.hpp) forked
    // under lock, the engine's. wpm 0: the voice's own pace, taken as 170 words per minute.
    RawSpeech speak(std::unique_lock<std::mutex>& lock, const std::string& voice, int wpm,
                    const std::string& text, const std::vector<std::size_t>& marks);

  private:
    void select(const std::string& voice);
    std::vector<std::string> voices_;
    std::string voice_;  // the one selected
};

}  // namespace render::voice
