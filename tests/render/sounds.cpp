// Synthetic sounds; see sounds.hpp.
#include "tests/render/sounds.hpp"

#include <cmath>
#include <fstream>
#include <random>

#include "render/sound/decode/audio_decode.hpp"
#include "render/sound/loudness.hpp"
#include "tests/catch.hpp"

namespace render_test {

namespace {

void put16(std::ofstream& out, std::uint32_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.put(static_cast<char>((v >> (8 * i)) & 0xFF));
}

}  // namespace

std::vector<float> speech_like(double seconds, unsigned seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0, 1);
    const auto n = static_cast<std::size_t>(seconds * 48000);
    const double pitch = 110 + 40 * (seed % 5);
    std::vector<float> out(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double t = static_cast<double>(i) / 48000;
        const double syllable = std::pow(std::sin(M_PI * 4 * t), 2);
        double v = 0;
        for (int h = 1; h <= 8; ++h) v += std::sin(2 * M_PI * pitch * h * t) / h;
        out[i] = static_cast<float>(syllable * (v + 0.3 * noise(rng)));
    }
    render::LoudnessMeter meter;
    std::vector<float> stereo(2 * n);
    for (std::size_t i = 0; i < n; ++i) stereo[2 * i] = stereo[2 * i + 1] = out[i] * M_SQRT1_2;
    meter.add(stereo.data(), n);
    const double gain = std::pow(10.0, (-16 - meter.result().lufs) / 20);
    for (float& s : out) s = static_cast<float>(s * gain);
    return out;
}

std::vector<float> tone(double seconds, double hz, double amplitude) {
    std::vector<float> out(static_cast<std::size_t>(seconds * 48000));
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = static_cast<float>(amplitude * std::sin(2 * M_PI * hz * i / 48000.0));
    return out;
}

void write_f32(const std::filesystem::path& path, const std::vector<float>& mono) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(mono.data()),
              static_cast<std::streamsize>(mono.size() * sizeof(float)));
    REQUIRE(out.good());
}

void write_wav(const std::filesystem::path& path, const std::vector<float>& samples, int channels,
               int rate) {
    std::ofstream out(path, std::ios::binary);
    const auto data = static_cast<std::uint32_t>(samples.size() * 2);
    out << "RIFF";
    put16(out, 36 + data, 4);
    out << "WAVEfmt ";
    put16(out, 16, 4);
    put16(out, 1, 2);  // PCM
    put16(out, static_cast<std::uint32_t>(channels), 2);
    put16(out, static_cast<std::uint32_t>(rate), 4);
    put16(out, static_cast<std::uint32_t>(rate * channels * 2), 4);
    put16(out, static_cast<std::uint32_t>(channels * 2), 2);
    put16(out, 16, 2);
    out << "data";
    put16(out, data, 4);
    for (const float s : samples) {
        const auto v = static_cast<std::int16_t>(std::lround(std::clamp(s, -1.0f, 1.0f) * 32767));
        put16(out, static_cast<std::uint16_t>(v), 2);
    }
    REQUIRE(out.good());
}

std::vector<float> decode_stereo(const std::filesystem::path& path) {
    render::AudioReader reader(path.string(), 2);
    std::vector<float> out, block(2 * 8192);
    while (const std::size_t got = reader.read(block.data(), 8192))
        out.insert(out.end(), block.begin(), block.begin() + static_cast<std::ptrdiff_t>(2 * got));
    return out;
}

double rms(const std::vector<float>& stereo, std::int64_t from, std::int64_t to) {
    double sum = 0;
    for (std::int64_t i = 2 * from; i < 2 * to; ++i) sum += double(stereo[i]) * stereo[i];
    return std::sqrt(sum / static_cast<double>(std::max<std::int64_t>(1, 2 * (to - from))));
}

}  // namespace render_test
