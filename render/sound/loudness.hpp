// EBU R128 measurement with libebur128: integrated loudness (LUFS) and true peak (dBTP) of 48 kHz
// stereo float PCM, fed a block at a time, or of the first audio stream of any file libav reads.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace render {

struct Loudness {
    double lufs = 0;          // integrated (gated); -inf for silence
    double true_peak_db = 0;  // the highest of both channels, dBTP; -inf for silence
    double seconds = 0;       // of the PCM measured
    int sample_rate = 0;
};

class LoudnessMeter {
  public:
    LoudnessMeter();
    ~LoudnessMeter();
    LoudnessMeter(const LoudnessMeter&) = delete;
    LoudnessMeter& operator=(const LoudnessMeter&) = delete;

    void add(const float* stereo, std::size_t frames);
    Loudness result() const;

  private:
    struct State;
    std::unique_ptr<State> state_;
    std::int64_t frames_ = 0;
};

// Decodes the file's first audio stream (as a player would: the film's edit list applied) and
// measures it. Throws SystemError.
Loudness measure_loudness(const std::string& path);

}  // namespace render
