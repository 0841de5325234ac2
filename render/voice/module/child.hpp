// Speaking each line in a child process forked for it. Both engines keep state from one line to
// the next (espeak-ng's function statics, Festival's interpreter), so a line spoken after another
// could come out different; a child starts from the state the engine had after starting, the
// same for every line in every process, and lines can be spoken side by side.
#pragma once
#include <functional>
#include <mutex>

#include "render/voice/module/raw_speech.hpp"

namespace render::voice {

// Forks while `lock` (the engine's) is held, releases it, and returns what speak() gave in the
// child; the child's exception comes back as std::runtime_error with its message.
RawSpeech speak_in_child(std::unique_lock<std::mutex>& lock,
                         const std::function<RawSpeech()>& speak);

}  // namespace render::voice
