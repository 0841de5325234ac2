// Test sound helpers; see sound.hpp.
#include "tests/render/sound.hpp"

#include <ebur128.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <string>

namespace render_test {

std::vector<float> tone(double freq, double seconds, int rate, double amplitude) {
    std::vector<float> out(static_cast<std::size_t>(std::lround(seconds * rate)));
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = static_cast<float>(amplitude * std::sin(2 * M_PI * freq * i / rate));
    return out;
}

std::vector<float> silence(double seconds, int rate) {
    return std::vector<float>(static_cast<std::size_t>(std::lround(seconds * rate)), 0.0f);
}

std::vector<float> concat(std::vector<float> a, const std::vector<float>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

namespace {

void put(std::string& out, std::uint32_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) out += static_cast<char>((value >> (8 * i)) & 0xff);
}

}  // namespace

void write_wav(const std::filesystem::path& path, int rate, int channels,
               const std::vector<float>& samples) {
    const auto data_bytes = static_cast<std::uint32_t>(samples.size() * 2);
    std::string out = "RIFF";
    put(out, 36 + data_bytes, 4);
    out += "WAVEfmt ";
    put(out, 16, 4);  // fmt chunk size
    put(out, 1, 2);   // PCM
    put(out, static_cast<std::uint32_t>(channels), 2);
    put(out, static_cast<std::uint32_t>(rate), 4);
    put(out, static_cast<std::uint32_t>(rate * channels * 2), 4);  // bytes per second
    put(out, static_cast<std::uint32_t>(channels * 2), 2);         // bytes per frame
    put(out, 16, 2);                                               // bits per sample
    out += "data";
    put(out, data_bytes, 4);
    for (float s : samples) {
        const auto v = static_cast<std::int16_t>(std::lround(std::clamp(s, -1.0f, 1.0f) * 32767));
        put(out, static_cast<std::uint16_t>(v), 2);
    }
    std::ofstream(path, std::ios::binary) << out;
}

std::vector<float> stereo(const std::vector<float>& mono) {
    std::vector<float> out;
    for (float s : mono) out.insert(out.end(), {s, s});
    return out;
}

double lufs(const std::vector<float>& pcm) {
    ebur128_state* state = ebur128_init(1, 48000, EBUR128_MODE_I);
    ebur128_add_frames_float(state, pcm.data(), pcm.size());
    double out = 0;
    ebur128_loudness_global(state, &out);
    ebur128_destroy(&state);
    return out;
}

double peak_dbfs(const std::vector<float>& pcm) {
    float peak = 0;
    for (float s : pcm) peak = std::max(peak, std::abs(s));
    return 20 * std::log10(peak);
}

std::size_t first_above(const std::vector<float>& pcm, double db) {
    const double level = std::pow(10.0, db / 20);
    for (std::size_t i = 0; i < pcm.size(); ++i)
        if (std::abs(pcm[i]) > level) return i;
    return pcm.size();
}

double pitch(const std::vector<float>& pcm, int rate) {
    std::size_t first = 0, last = 0, crossings = 0;
    for (std::size_t i = 1; i < pcm.size(); ++i) {
        if (pcm[i - 1] < 0 && pcm[i] >= 0) {
            if (crossings++ == 0) first = i;
            last = i;
        }
    }
    return crossings < 2 ? 0 : (crossings - 1) * static_cast<double>(rate) / (last - first);
}

}  // namespace render_test
