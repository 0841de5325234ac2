// The voice module (shardreel-voice.so beside the binary: espeak-ng, Festival, libav for takes,
// libebur128) is loaded on the first speech-cache miss only, so stills, checks and renders
// whose lines are all cached never map the engines.
#pragma once
#include "render/voice/synthesizer.hpp"

namespace render {

// Loads the module once per process and returns its synthesizer. Throws SystemError naming the
// module's path and dlerror()'s reason when it is missing or broken.
voice::Synthesizer& voice_synthesizer();

}  // namespace render
