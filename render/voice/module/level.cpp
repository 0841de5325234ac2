// Loudness normalisation, peak limiting and silence trimming of spoken lines; see level.hpp.
#include "render/voice/module/level.hpp"

#include <ebur128.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <new>

#include "render/sound/decode/audio_decode.hpp"

namespace render::voice {

namespace {

double from_db(double db) { return std::pow(10.0, db / 20); }

struct StateDeleter {
    void operator()(ebur128_state* s) const { ebur128_destroy(&s); }
};

// The line's loudness in LUFS; -inf for silence.
double loudness(const std::vector<float>& pcm) {
    std::unique_ptr<ebur128_state, StateDeleter> state(ebur128_init(1, kAudioRate, EBUR128_MODE_I));
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

// The smallest of v[i - half .. i + half] for every i (van Herk / Gil-Werman: the minima from
// each block's start and to each block's end, blocks one window long, meet in every window).
std::vector<float> window_min(const std::vector<float>& v, std::size_t half) {
    const std::size_t n = v.size(), width = 2 * half + 1;
    std::vector<float> from_start(n), to_end(n);
    for (std::size_t i = 0; i < n; ++i)
        from_start[i] = i % width == 0 ? v[i] : std::min(from_start[i - 1], v[i]);
    for (std::size_t i = n; i-- > 0;)
        to_end[i] = (i + 1) % width == 0 || i + 1 == n ? v[i] : std::min(to_end[i + 1], v[i]);
    std::vector<float> out(n);
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t lo = i > half ? i - half : 0, hi = std::min(n - 1, i + half);
        out[i] = std::min(to_end[lo], from_start[hi]);
    }
    return out;
}

// pcm scaled by gain, then limited to the ceiling. Each sample's own need (ceiling / |x|, or 1)
// is spread over the 5 ms around it (the window minimum), let recover over 50 ms, then averaged
// over the same 5 ms on each side for a smooth dip: every gain averaged at a peak is at most the
// peak's need, so no sample ends above the ceiling (the clamp only takes off rounding).
std::vector<float> limited(const std::vector<float>& pcm, double gain, double ceiling) {
    const auto half = static_cast<std::size_t>(0.005 * kAudioRate);
    const double release = 1 - std::exp(-1 / (0.05 * kAudioRate));
    std::vector<float> need(pcm.size());
    for (std::size_t i = 0; i < pcm.size(); ++i) {
        const double x = std::abs(pcm[i] * gain);
        need[i] = x > ceiling ? static_cast<float>(ceiling / x) : 1.0f;
    }
    std::vector<float> dip = window_min(need, half);
    for (std::size_t i = 1; i < dip.size(); ++i)
        dip[i] = std::min(dip[i], static_cast<float>(dip[i - 1] + (1 - dip[i - 1]) * release));
    const auto top = static_cast<float>(ceiling);
    std::vector<float> out(pcm.size());
    double sum = 0;  // of dip[from .. to)
    for (std::size_t i = 0, from = 0, to = 0; i < pcm.size(); ++i) {
        for (; to < std::min(pcm.size(), i + half + 1); ++to) sum += dip[to];
        for (; from + half < i; ++from) sum -= dip[from];
        const double smooth = sum / static_cast<double>(to - from);
        out[i] = std::clamp(static_cast<float>(pcm[i] * gain * smooth), -top, top);
    }
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
    const std::ptrdiff_t to =
        std::min<std::ptrdiff_t>(end, static_cast<std::ptrdiff_t>(pcm.size()));
    std::copy(pcm.begin() + from, pcm.begin() + to, out.begin() + (from - begin));
    pcm = std::move(out);
    return begin;
}

}  // namespace render::voice
