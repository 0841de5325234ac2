// LoudnessMeter over libebur128 (modes I and TRUE_PEAK, both channels weighted 1 as R128 says).
#include "render/sound/loudness.hpp"

#include <ebur128.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <new>
#include <vector>

#include "render/sound/decode/audio_decode.hpp"
#include "render/sys/error.hpp"

namespace render {

struct LoudnessMeter::State {
    ebur128_state* st = nullptr;
    ~State() { ebur128_destroy(&st); }
};

LoudnessMeter::LoudnessMeter() : state_(std::make_unique<State>()) {
    state_->st = ebur128_init(2, kAudioRate, EBUR128_MODE_I | EBUR128_MODE_TRUE_PEAK);
    if (!state_->st) throw std::bad_alloc();
}

LoudnessMeter::~LoudnessMeter() = default;

void LoudnessMeter::add(const float* stereo, std::size_t frames) {
    if (ebur128_add_frames_float(state_->st, stereo, frames) != EBUR128_SUCCESS)
        throw SystemError("cannot measure loudness");
    frames_ += static_cast<std::int64_t>(frames);
}

Loudness LoudnessMeter::result() const {
    Loudness r;
    ebur128_loudness_global(state_->st, &r.lufs);
    double peak = 0;
    for (unsigned channel = 0; channel < 2; ++channel) {
        double p = 0;
        ebur128_true_peak(state_->st, channel, &p);
        peak = std::max(peak, p);
    }
    r.true_peak_db = peak > 0 ? 20 * std::log10(peak) : -std::numeric_limits<double>::infinity();
    r.seconds = static_cast<double>(frames_) / kAudioRate;
    r.sample_rate = kAudioRate;
    return r;
}

Loudness measure_loudness(const std::string& path) {
    AudioReader reader(path, 2);
    LoudnessMeter meter;
    std::vector<float> block(2 * 8192);
    while (const std::size_t got = reader.read(block.data(), 8192)) meter.add(block.data(), got);
    return meter.result();
}

}  // namespace render
