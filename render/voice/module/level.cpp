// Loudness normalisation, peak limiting and silence trimming of spoken lines; see level.hpp.
#include "render/voice/module/level.hpp"

#include <ebur128.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <memory>
#include <new>

#include "render/av/decode_audio.hpp"

namespace render::voice {

namespace {

double from_db(double db) { return std::pow(10.0, db / 20); }

struct StateDeleter {
    void operator()(ebur128_state* s) const { ebur128_destroy(&s); }
};

// The line's loudness in LUFS; -inf for silence.
double loudness(const std::vector<float>& pcm) {
    std::unique_ptr<ebur128_state, StateDeleter> state(
        ebur128_init(1, kAudioRate, EBUR128_MODE_I));
    if (!state) throw std::bad_alloc();
    ebur128_add_frames_float(state.get(), pcm.data(), pcm.size());
    double lufs = -std::numeric_limits<double>::infinity();
    ebur128_loudness_global(state.get(), &lufs);
    if (std::isfinite(lufs)) return lufs;
    // Shorter than one 400 ms gating block: the whole line is the window.
    const auto ms = static_cast<unsigned long>(pcm.size() * 1000 / kAudioRate);
    if (ms > 0) ebur128_loudness_window(state.get(), ms, &lufs);
    return lufs;
}

// The smallest of v[i - half .. i + half] for every i.
std::vector<double> window_min(const std::vector<double>& v, std::size_t half) {
    std::vector<double> out(v.size());
    std::deque<std::size_t> rising;  // indices whose values increase front to back
    std::size_t next = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
        for (; next < v.size() && next <= i + half; ++next) {
            while (!rising.empty() && v[rising.back()] >= v[next]) rising.pop_back();
            rising.push_back(next);
        }
        while (rising.front() + half < i) rising.pop_front();
        out[i] = v[rising.front()];
    }
    return out;
}

// The limiter's gain for every sample. Each sample's own need (ceiling / |x|, or 1) is spread
// over the 5 ms around it (the window minimum), let recover over 50 ms, then averaged over the
// same 5 ms on each side for a smooth dip: every gain averaged at a peak is at most the peak's
// need, so no sample ends above the ceiling.
std::vector<double> limiter_gain(const std::vector<double>& x, double ceiling) {
    const auto half = static_cast<std::size_t>(0.005 * kAudioRate);
    const double release = 1 - std::exp(-1 / (0.05 * kAudioRate));
    std::vector<double> need(x.size());
    for (std::size_t i = 0; i < x.size(); ++i)
        need[i] = std::abs(x[i]) > ceiling ? ceiling / std::abs(x[i]) : 1.0;
    std::vector<double> gain = window_min(need, half);
    for (std::size_t i = 1; i < gain.size(); ++i)
        gain[i] = std::min(gain[i], gain[i - 1] + (1 - gain[i - 1]) * release);
    std::vector<double> sum(gain.size() + 1, 0.0);
    for (std::size_t i = 0; i < gain.size(); ++i) sum[i + 1] = sum[i] + gain[i];
    std::vector<double> smooth(gain.size());
    for (std::size_t i = 0; i < gain.size(); ++i) {
        const std::size_t from = i > half ? i - half : 0, to = std::min(gain.size(), i + half + 1);
        smooth[i] = (sum[to] - sum[from]) / static_cast<double>(to - from);
    }
    return smooth;
}

// pcm scaled by gain, then limited to the ceiling.
std::vector<float> limited(const std::vector<float>& pcm, double gain, double ceiling) {
    std::vector<double> x(pcm.size());
    for (std::size_t i = 0; i < pcm.size(); ++i) x[i] = pcm[i] * gain;
    const std::vector<double> g = limiter_gain(x, ceiling);
    const auto top = static_cast<float>(ceiling);  // the averages' last bits of rounding
    std::vector<float> out(pcm.size());
    for (std::size_t i = 0; i < pcm.size(); ++i)
        out[i] = std::clamp(static_cast<float>(x[i] * g[i]), -top, top);
    return out;
}

}  // namespace

void normalise_loudness(std::vector<float>& pcm) {
    const double lufs = loudness(pcm);
    if (!std::isfinite(lufs)) return;
    // Limiting takes a little loudness off; the gain makes it up (two or three passes).
    double gain_db = kLineLufs - lufs;
    std::vector<float> out;
    for (int pass = 0; pass < 6; ++pass) {
        out = limited(pcm, from_db(gain_db), from_db(kLinePeakDbfs));
        const double measured = loudness(out);
        if (!std::isfinite(measured) || std::abs(measured - kLineLufs) < 0.05) break;
        gain_db += kLineLufs - measured;
    }
    pcm = std::move(out);
}

std::ptrdiff_t trim_silence(std::vector<float>& pcm) {
    const auto loud = [](float x) { return std::abs(x) > from_db(kSilenceDbfs); };
    const auto first = std::find_if(pcm.begin(), pcm.end(), loud);
    if (first == pcm.end()) return 0;
    const auto last = std::find_if(pcm.rbegin(), pcm.rend(), loud).base();  // one past
    const auto keep = static_cast<std::ptrdiff_t>(std::lround(kKeptSilence * kAudioRate));
    const std::ptrdiff_t begin = (first - pcm.begin()) - keep;  // negative: pad
    const std::ptrdiff_t end = (last - pcm.begin()) + keep;     // past the end: pad
    std::vector<float> out(static_cast<std::size_t>(end - begin), 0.0f);
    const std::ptrdiff_t from = std::max<std::ptrdiff_t>(begin, 0);
    const std::ptrdiff_t to = std::min<std::ptrdiff_t>(end, static_cast<std::ptrdiff_t>(pcm.size()));
    std::copy(pcm.begin() + from, pcm.begin() + to, out.begin() + (from - begin));
    pcm = std::move(out);
    return begin;
}

}  // namespace render::voice
