// libFuzzer target: arbitrary bytes as a recorded take or a music file, any file libav opens.
// The first byte picks the file's extension (a take's, or .f32 for the speech cache's raw
// files); the rest is written to a private temporary file and read as the film would: probed
// (probe_audio, as `check` does for music), decoded to mono (decode_audio, as a take is) and to
// stereo (AudioReader, as music and cues are). Failing to read it is a SystemError, never a
// crash, hang or leak. fuzz.sh runs it without a network (libav's nested protocols stay
// file-only anyway).
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include "fuzz/audio_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::filesystem::path dir = fuzz::private_dir("shardreel-fuzz-audio");
    if (size == 0) return 0;
    const std::string path = fuzz::write_take(dir, data, size);
    fuzz::read_take(path);
    return 0;
}
