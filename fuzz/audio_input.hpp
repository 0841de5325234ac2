// What fuzz_audio does with its bytes, shared with its regression test: the first byte picks an
// extension, the rest is the file, read as a take (mono) and as music (stereo) after a probe.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "fuzz/private_dir.hpp"
#include "render/sound/decode/audio_decode.hpp"
#include "render/sys/error.hpp"

namespace fuzz {

// A take's extensions in the order speech.cpp tries them, then the speech cache's raw .f32.
inline constexpr std::array<const char*, 7> kAudioExtensions = {"wav", "flac", "mp3", "opus",
                                                                "ogg", "m4a",  "f32"};

// Writes data[1..size) to dir/take.EXT, EXT picked by data[0]; its path. size must be above 0.
inline std::string write_take(const std::filesystem::path& dir, const std::uint8_t* data,
                              std::size_t size) {
    const std::string path =
        (dir / (std::string("take.") + kAudioExtensions[data[0] % kAudioExtensions.size()]))
            .string();
    std::ofstream(path, std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(data + 1), static_cast<std::streamsize>(size - 1));
    return path;
}

// Probes and decodes path as mono and as stereo; false when it is refused (a SystemError).
// Anything else thrown is a bug and escapes.
inline bool read_take(const std::string& path) {
    try {
        render::probe_audio(path);
        const render::DecodedAudio mono = render::decode_audio(path, 1);
        const render::DecodedAudio stereo = render::decode_audio(path, 2);
        if (stereo.frames() != mono.frames()) __builtin_trap();  // one length, either way
        return true;
    } catch (const render::SystemError&) {
        return false;
    }
}

}  // namespace fuzz
