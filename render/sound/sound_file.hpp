// Sound files of the film's mix: one audio stream encoded from a window of the mix into a
// one-stream file (the AAC segments and the WAV output), and the whole film's mix as a WAV,
// 32-bit float at 48 kHz stereo, for an editor or a review (an M4A of the film's AAC track is
// render/container/concat's sound-only case).
#pragma once
#include <functional>

#include "render/sound/audio_encoder.hpp"
#include "render/sound/audio_mix.hpp"
#include "render/sys/temp_file.hpp"

namespace render {

// Mixes [from, to), encodes it with setup and writes it as `muxer` into file (not committed),
// polling cancel (if any). keep sees each packet (stamped in samples from `from`'s encoder
// start) and may restamp it; false drops it. Throws SystemError.
void encode_sound(const FilmAudio& audio, std::int64_t from, std::int64_t to,
                  const AudioCodecSetup& setup, const char* muxer, const TempFile& file,
                  const std::function<bool(AVPacket*)>& keep, const CancelToken* cancel);

// The whole film's mix into file (not committed).
void write_wav(const FilmAudio& audio, const TempFile& file, const CancelToken* cancel = nullptr);

}  // namespace render
