// render/sound/decode/audio_decode: any libav-readable sound as 48 kHz float, mono or stereo, its
// pitch and timing kept through the resampler; files that are not sound fail naming the file.
#include <cmath>

#include "render/sound/decode/audio_decode.hpp"
#include "render/sys/error.hpp"
#include "tests/catch.hpp"
#include "tests/render/cli.hpp"
#include "tests/render/sound.hpp"

using namespace render_test;

TEST_CASE("decode_audio reads a 44.1 kHz stereo WAV as 48 kHz mono or stereo", "[audio]") {
    const TempDir dir;
    const auto wav = dir.path / "tone.wav";
    write_wav(wav, 44100, 2, stereo(tone(440, 1.0, 44100, 0.5)));

    const render::DecodedAudio mono = render::decode_audio(wav.string(), 1);
    CHECK(mono.channels == 1);
    CHECK(std::abs(static_cast<double>(mono.frames()) - 48000) <= 2);
    CHECK(pitch(mono.samples, 48000) == Approx(440).margin(1));
    // Both channels carry the tone: the down-mix keeps it (swresample's -3 dB per channel).
    CHECK(peak_dbfs(mono.samples) == Approx(20 * std::log10(0.5)).margin(3.5));

    const render::DecodedAudio both = render::decode_audio(wav.string(), 2);
    CHECK(both.channels == 2);
    CHECK(both.frames() == mono.frames());
    for (std::size_t i = 1000; i < 1010; ++i) CHECK(both.samples[2 * i] == both.samples[2 * i + 1]);
}

TEST_CASE("resample_mono keeps each instant where it was", "[audio]") {
    std::vector<float> click(22050, 0.0f);  // 1 s at 22.05 kHz, one click at 0.5 s
    click[11025] = 1.0f;
    const std::vector<float> out = render::resample_mono(click, 22050);
    CHECK(std::abs(static_cast<double>(out.size()) - 48000) <= 2);
    const auto loudest = std::max_element(
        out.begin(), out.end(), [](float a, float b) { return std::abs(a) < std::abs(b); });
    CHECK(std::abs(static_cast<double>(loudest - out.begin()) - 24000) <= 1);
    CHECK(render::resample_mono(click, 48000) == click);  // nothing to do at the film's rate
}

TEST_CASE("decode_audio of what is not sound fails naming the file", "[audio]") {
    const TempDir dir;
    const auto text = dir.path / "notes.wav";
    write_text(text, "these are the words, not their sound\n");
    CHECK_THROWS_WITH(render::decode_audio(text.string(), 1),
                      Catch::StartsWith("cannot open " + text.string() + ": "));
    const auto missing = dir.path / "missing.wav";
    CHECK_THROWS_WITH(render::decode_audio(missing.string(), 1),
                      "cannot open " + missing.string() + ": No such file or directory");
    // A picture opens (libav reads images) but holds no audio stream.
    const auto png =
        (std::filesystem::path(SHARDREEL_SOURCE_DIR) / "tests/golden/chapter_bytes_grid.png")
            .string();
    CHECK_THROWS_WITH(render::decode_audio(png, 1),
                      png + " has no audio stream (it is not a sound file)");
}
