// The film's sound as the mixer takes it (clips on the film's sample clock, music under them) and
// the mix itself: voice stem, music ducked by it (sidechaincompress), summed (amix), limited
// (alimiter) in libavfilter, streamed as 48 kHz stereo float over any window of the film.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "render/sound/decode/audio_decode.hpp"

namespace render {

class CancelToken;

// The film sample at which film frame `frame` starts: round(frame * 48000 / fps), in integers,
// so chapters own adjacent whole sample ranges and nothing drifts over a long film.
std::int64_t film_sample(std::int64_t frame, int fps);

// A sound placed on the film: a voice line or a `sound:` cue.
struct AudioClip {
    std::int64_t start = 0;   // film sample where the clip's first sample plays
    std::int64_t frames = 0;  // its length at 48 kHz (audio_frames); what plays past the film's
                              // end is cut
    std::string path;         // .f32: raw mono float (the speech cache); else any sound file
    std::string digest;       // what the sound is (speech key, XXH3-128 of the file): cache keys
    bool operator==(const AudioClip&) const = default;
};

// The music under the whole film: its sample 0 plays at film sample 0.
struct MusicBed {
    std::string path, digest;  // empty path: no music
    double level_db = -20;     // gain before ducking
    bool operator==(const MusicBed&) const = default;
};

struct FilmAudio {
    int fps = 30;
    int frames = 0;                // the film's length in video frames
    std::vector<AudioClip> clips;  // any order
    MusicBed music;
    std::int64_t samples() const { return film_sample(frames, fps); }
    bool operator==(const FilmAudio&) const = default;
};

// The mixer's fixed settings, as text for cache keys (the filter graph, fades, warm-up).
std::string mix_settings();

// Where the music's fade-out begins in a film of film_samples: a window ending after it depends
// on the film's length.
std::int64_t fade_out_start(std::int64_t film_samples);

// Mixing of a window starts this many samples earlier, so the compressor and limiter reach the
// state a mix of the whole film has there (their release is far shorter): a window's samples
// depend only on what sounds in [window_warmup(from), to).
std::int64_t window_warmup(std::int64_t from);

// The film's mix over samples [from, to), interleaved stereo float: clips summed into the voice
// stem (mono at -3 dB per channel), the music at its level, faded in over the film's first 1 s
// and out over its last 2 s, ducked by the stem (fast attack, slow release), voice and music
// summed at unity, then limited so the sample peak stays at -2 dBFS (headroom for the codec's
// overshoot against the -1 dBTP target). Throws SystemError on a file or libav failure.
class MixWindow {
  public:
    MixWindow(const FilmAudio& audio, std::int64_t from, std::int64_t to);
    ~MixWindow();
    MixWindow(const MixWindow&) = delete;
    MixWindow& operator=(const MixWindow&) = delete;

    // Up to `frames` frames into out (2 floats each); fewer only at `to`.
    std::size_t read(float* out, std::size_t frames);
    // Reads the rest of the window a block at a time into sink, polling cancel (if any).
    void drain(const std::function<void(const float*, std::size_t)>& sink,
               const CancelToken* cancel = nullptr);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace render
