// Festival through libFestival (its HTS voices, cmu_us_slt_arctic_hts: clearly better English
// than espeak-ng, ~0.1 s per second of speech); bookmarks timed by the words' first phones.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "render/voice/module/raw_speech.hpp"

namespace render::voice {

// Festival's interpreter is one global state: one instance per process, entered by one thread.
class Festival {
  public:
    Festival();  // loads Festival's init files; throws std::runtime_error
    Festival(const Festival&) = delete;
    Festival& operator=(const Festival&) = delete;

    // The installed voices (voice.list), sorted.
    const std::vector<std::string>& voices() const { return voices_; }
    // Selects the voice when another was, and loads what it needs: done in the parent, so
    // that each line's child (child.hpp) starts with the voice ready.
    void select(const std::string& voice);
    // Speaks with the selected voice, changing the interpreter's state: in a line's child. wpm
    // 0: the voice's own pace, taken as 170 words per minute.
    RawSpeech speak(int wpm, const std::string& text, const std::vector<std::size_t>& marks);

  private:
    std::vector<std::string> voices_;
    std::string voice_;  // the one selected
};

}  // namespace render::voice
