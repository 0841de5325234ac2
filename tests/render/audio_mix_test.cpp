// The mixer and the film's AAC track: the sample clock, clips placed to the sample, windows that
// agree with a mix of the whole film, ducking and fades, loudness and peaks, and per-chapter AAC
// segments that join without seams (decoded with libav, compared with the mix and with one
// encode of the whole film).
#include "render/sound/audio_mix.hpp"

#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "render/container/concat.hpp"
#include "render/sound/aac_segment.hpp"
#include "render/sound/loudness.hpp"
#include "render/sys/temp_file.hpp"
#include "tests/catch.hpp"
#include "tests/render/cli.hpp"
#include "tests/render/sounds.hpp"

namespace fs = std::filesystem;
using render::AudioClip;
using render::FilmAudio;
using render_test::TempDir;

namespace {

constexpr std::int64_t kRate = 48000;

std::vector<float> mix(const FilmAudio& audio, std::int64_t from, std::int64_t to) {
    render::MixWindow window(audio, from, to);
    std::vector<float> out(2 * static_cast<std::size_t>(to - from + 1));
    const std::size_t got = window.read(out.data(), static_cast<std::size_t>(to - from + 1));
    REQUIRE(got == static_cast<std::size_t>(to - from));  // exactly the window, never more
    out.resize(2 * got);
    return out;
}

AudioClip clip(const fs::path& dir, const std::string& name, std::int64_t start,
               const std::vector<float>& mono) {
    const fs::path path = dir / (name + ".f32");
    render_test::write_f32(path, mono);
    return {start, static_cast<std::int64_t>(mono.size()), path.string(), name};
}

// Music at 44.1 kHz stereo: a chord, a bass pulse and noise hats on the beat, `seconds` long.
std::string write_music(const fs::path& dir, double seconds) {
    std::vector<float> music;
    unsigned noise = 1;
    for (int i = 0; i < static_cast<int>(44100 * seconds); ++i) {
        const double t = i / 44100.0, beat = std::fmod(t, 0.5);
        noise = noise * 1103515245 + 12345;
        const double hat = std::exp(-beat * 30) * ((noise >> 8) % 2001 / 1000.0 - 1);
        const double v = 0.3 * std::sin(2 * M_PI * 220 * t) + 0.2 * std::sin(2 * M_PI * 277 * t) +
                         0.2 * std::sin(2 * M_PI * 330 * t) + 0.3 * hat +
                         0.4 * std::exp(-beat * 8) * std::sin(2 * M_PI * 55 * beat);
        music.push_back(static_cast<float>(0.8 * v));
        music.push_back(static_cast<float>(0.7 * v));
    }
    const fs::path path = dir / "music.wav";
    render_test::write_wav(path, music, 2, 44100);
    return path.string();
}

// Amplitude of the `hz` component of channel 0 over frames [from, to) (Goertzel).
double tone_amplitude(const std::vector<float>& stereo, std::int64_t from, std::int64_t to,
                      double hz) {
    const double w = 2 * M_PI * hz / kRate;
    double s1 = 0, s2 = 0;
    for (std::int64_t i = from; i < to; ++i) {
        const double s = stereo[2 * i] + 2 * std::cos(w) * s1 - s2;
        s2 = s1;
        s1 = s;
    }
    const double power = s1 * s1 + s2 * s2 - 2 * std::cos(w) * s1 * s2;
    return 2 * std::sqrt(power) / static_cast<double>(to - from);
}

double max_error(const std::vector<float>& a, const std::vector<float>& b, std::int64_t from,
                 std::int64_t to) {
    double m = 0;
    for (std::int64_t i = 2 * from; i < 2 * to; ++i) m = std::max(m, double(std::abs(a[i] - b[i])));
    return m;
}

// Speech-like lines every few seconds (some across the chapter seams) over music at -20 dB.
FilmAudio narrated_film(const fs::path& dir, const std::vector<int>& chapter_frames) {
    FilmAudio audio;
    audio.fps = 30;
    for (int f : chapter_frames) audio.frames += f;
    const double seconds = audio.frames / 30.0;
    unsigned seed = 1;
    for (double t = 0.4; t + 2.5 < seconds; t += 3.1, ++seed)
        audio.clips.push_back(clip(dir, "line" + std::to_string(seed),
                                   static_cast<std::int64_t>(t * kRate),
                                   render_test::speech_like(1.8 + 0.3 * (seed % 3), seed)));
    audio.music = {write_music(dir, seconds + 1), "music", -20};
    return audio;
}

std::vector<render::ConcatSound> encode_chapters(const FilmAudio& audio,
                                                 const std::vector<int>& chapter_frames,
                                                 const fs::path& dir) {
    std::vector<render::ConcatSound> segments;
    int frame = 0;
    for (std::size_t c = 0; c < chapter_frames.size(); ++c) {
        const std::int64_t begin = render::film_sample(frame, audio.fps);
        frame += chapter_frames[c];
        const auto w =
            render::aac_window(begin, render::film_sample(frame, audio.fps), audio.samples());
        const std::string path = (dir / ("chapter" + std::to_string(c) + ".m4a")).string();
        render::TempFile file(path);
        render::write_aac_segment(audio, w, file);
        file.commit();
        segments.push_back({path, w.first, w.lead});
    }
    return segments;
}

// The film's track joined from its chapters' segments, into dir/film.m4a.
render::ConcatStats join_chapters(const FilmAudio& audio, const std::vector<int>& chapter_frames,
                                  const fs::path& dir) {
    render::ConcatExtras extras;
    extras.audio = {encode_chapters(audio, chapter_frames, dir), audio.samples()};
    return render::concat_mp4({}, (dir / "film.m4a").string(), extras);
}

// The same mix encoded in one piece, for comparison, decoded.
std::vector<float> one_encode(const FilmAudio& audio, const fs::path& dir) {
    const std::int64_t n = audio.samples();
    const std::string one = (dir / "one.m4a").string();
    {
        render::TempFile file(one);
        render::write_aac_segment(audio, render::aac_window(0, n, n), file);
        file.commit();
    }
    render::ConcatExtras whole;
    whole.audio = {{{one, -1, 0}}, n};
    render::concat_mp4({}, (dir / "one_film.m4a").string(), whole);
    return render_test::decode_stereo(dir / "one_film.m4a");
}

// The seams' film samples.
std::vector<std::int64_t> seams_of(const std::vector<int>& chapter_frames, int fps) {
    std::vector<std::int64_t> seams;
    int frame = 0;
    for (std::size_t c = 0; c + 1 < chapter_frames.size(); ++c)
        seams.push_back(render::film_sample(frame += chapter_frames[c], fps));
    return seams;
}

}  // namespace

TEST_CASE("film_sample: the film's sample clock is exact integer arithmetic", "[sound]") {
    CHECK(render::film_sample(0, 30) == 0);
    CHECK(render::film_sample(7740, 30) == 7740LL * 1600);  // the default film at 30 fps
    CHECK(render::film_sample(3870, 15) == 3870LL * 3200);
    CHECK(render::film_sample(1'000'003, 24) == 1'000'003LL * 2000);  // no drift at any length
    // 7 fps does not divide 48000: the nearest sample, never more than half a sample off.
    for (std::int64_t f = 0; f < 1000; ++f) {
        const std::int64_t s = render::film_sample(f, 7);
        CHECK(std::abs(static_cast<double>(s) - f * 48000.0 / 7) <= 0.5);
        CHECK(s <= render::film_sample(f + 1, 7));
    }
    CHECK(render::film_sample(7, 7) == 48000);
}

TEST_CASE("MixWindow plays a clip from its very sample, centred at -3 dB", "[sound]") {
    TempDir dir;
    FilmAudio audio;
    audio.frames = 60;  // 2 s at 30 fps
    std::vector<float> click(4800, 0.0f);
    click[0] = 0.5f;
    audio.clips.push_back(clip(dir.path, "click", 31234, click));
    const std::vector<float> out = mix(audio, 0, audio.samples());
    std::int64_t loudest = 0;
    for (std::int64_t i = 0; i < audio.samples(); ++i)
        if (std::abs(out[2 * i]) > std::abs(out[2 * loudest])) loudest = i;
    CHECK(loudest == 31234);  // the limiter's look-ahead is compensated
    CHECK(out[2 * loudest] == Approx(0.5 * M_SQRT1_2).epsilon(1e-4));
    CHECK(out[2 * loudest + 1] == Approx(0.5 * M_SQRT1_2).epsilon(1e-4));
    CHECK(render_test::rms(out, 0, 31000) == 0);  // silence is exactly silent
}

TEST_CASE("a window of the mix holds the same samples as a mix of the whole film", "[sound]") {
    TempDir dir;
    const FilmAudio audio = narrated_film(dir.path, {120, 150, 130});
    const std::vector<float> whole = mix(audio, 0, audio.samples());
    for (const auto& [from, to] : {std::pair<std::int64_t, std::int64_t>{0, 96000},
                                   {200000, 330000},
                                   {330000, audio.samples()}}) {
        const std::vector<float> part = mix(audio, from, to);
        std::vector<float> expected(whole.begin() + 2 * from, whole.begin() + 2 * to);
        INFO("window [" << from << ", " << to << ")");
        CHECK(max_error(part, expected, 0, to - from) < 1e-6);
    }
}

TEST_CASE("the music is faded in and out and ducked under the voice", "[sound]") {
    TempDir dir;
    FilmAudio audio;
    audio.frames = 300;  // 10 s
    std::vector<float> music;
    for (int i = 0; i < 11 * 48000; ++i) {
        const float v = static_cast<float>(0.5 * std::sin(2 * M_PI * 3000 * i / 48000.0));
        music.insert(music.end(), {v, v});
    }
    render_test::write_wav(dir.path / "tone.wav", music, 2, 48000);
    audio.music = {(dir.path / "tone.wav").string(), "tone", -6};
    std::vector<float> voice = render_test::tone(2.0, 200, 0.25);
    audio.clips.push_back(clip(dir.path, "voice", 4 * kRate, voice));
    const std::vector<float> out = mix(audio, 0, audio.samples());
    const double full = 0.5 * std::pow(10, -6 / 20.0);
    auto level = [&](double from, double to) {
        return tone_amplitude(out, static_cast<std::int64_t>(from * kRate),
                              static_cast<std::int64_t>(to * kRate), 3000);
    };
    CHECK(level(0.0, 0.1) < 0.1 * full);                           // fading in
    CHECK(level(0.45, 0.55) == Approx(0.5 * full).epsilon(0.05));  // half way at 0.5 s
    CHECK(level(2.0, 3.9) == Approx(full).epsilon(0.01));          // full before the voice
    CHECK(level(4.1, 5.9) < 0.35 * full);                          // ducked at least 9 dB
    CHECK(level(4.02, 4.1) < 0.5 * full);                          // within tens of ms
    CHECK(level(7.0, 7.9) == Approx(full).epsilon(0.02));          // back a second after it
    CHECK(level(8.95, 9.05) == Approx(0.5 * full).epsilon(0.05));  // fading out over 2 s
    CHECK(level(9.9, 10.0) < 0.1 * full);
}

TEST_CASE("AAC chapter segments join into the film's track without seams", "[sound]") {
    TempDir dir;
    const std::vector<int> chapters = {77, 45, 111, 34, 80};  // seams off the AAC grid
    const bool music = GENERATE(true, false);
    FilmAudio audio = narrated_film(dir.path, chapters);
    if (!music) audio.music = {};
    INFO((music ? "lines over music" : "lines alone"));
    const std::int64_t n = audio.samples();
    const auto stats = join_chapters(audio, chapters, dir.path);
    CHECK(stats.seams == 4);
    // Each seam is a frame both encoders wrote alike (their three seconds of pre-roll bring the
    // second encoder's state to the first's, music or not): the joined track is what one encoder
    // of both chapters would give.
    CHECK(stats.exact_seams == 4);

    const std::vector<float> joined = render_test::decode_stereo(dir.path / "film.m4a");
    const std::vector<float> single = one_encode(audio, dir.path);
    const std::vector<float> pcm = mix(audio, 0, n);
    // Exactly the film's samples (the edit list cuts the priming; a decoder ends on a whole frame).
    CHECK(static_cast<std::int64_t>(joined.size() / 2) >= n);
    CHECK(static_cast<std::int64_t>(joined.size() / 2) < n + render::kAacFrame);
    // Around each seam the joined track is as close to the mix as one encode of the whole film.
    for (const std::int64_t seam : seams_of(chapters, audio.fps)) {
        const double e = max_error(joined, pcm, seam - 2048, seam + 2048);
        const double e1 = max_error(single, pcm, seam - 2048, seam + 2048);
        INFO("seam at sample " << seam << ": joined " << e << ", one encode " << e1);
        CHECK(e <= 1.5 * e1 + 1e-3);
    }
    CHECK(max_error(joined, pcm, 0, n) <= 1.5 * max_error(single, pcm, 0, n));

    const render::Loudness loud = render::measure_loudness((dir.path / "film.m4a").string());
    CHECK(loud.lufs == Approx(-16).margin(1));
    CHECK(loud.true_peak_db <= -1);
    CHECK(loud.seconds == Approx(double(n) / kRate).margin(1024.0 / kRate));
}

TEST_CASE("an AAC segment's bytes depend only on its window of the mix", "[sound]") {
    TempDir dir;
    const FilmAudio audio = narrated_film(dir.path, {90, 90});
    const auto w =
        render::aac_window(render::film_sample(90, 30), audio.samples(), audio.samples());
    for (const char* name : {"a.m4a", "b.m4a"}) {
        render::TempFile file((dir.path / name).string());
        render::write_aac_segment(audio, w, file);
        file.commit();
    }
    CHECK(render_test::slurp(dir.path / "a.m4a") == render_test::slurp(dir.path / "b.m4a"));
    CHECK(render::audio_packet_count((dir.path / "a.m4a").string()) == w.end - w.first + w.lead);
}

TEST_CASE("aac_window: owned frames tile the film's grid, the first owns the priming frame",
          "[sound]") {
    const std::int64_t n = 480000;
    const auto first = render::aac_window(0, 160000, n);
    CHECK(first.first == -1);
    CHECK(first.lead == 0);
    CHECK(first.input_begin == 0);
    const auto second = render::aac_window(160000, 320000, n);
    CHECK(second.first == first.end);  // 160000 / 1024 = 156.25: frame 157 starts in the second
    CHECK(second.first == 157);
    CHECK(second.lead == 72);
    CHECK(second.input_begin == (157 - 144) * 1024);      // three seconds of pre-roll
    CHECK(second.input_end == (second.end + 24) * 1024);  // half a second after
    const auto last = render::aac_window(320000, n, n);
    CHECK(last.first == second.end);
    CHECK(last.end == (n + 1023) / 1024);
    CHECK(last.input_end == n);
}

// The figures in docs/commands/voices.md, "Sound": MANY=150 build/test_render "[.seams]"; NOMUSIC=1
// for lines alone.
TEST_CASE("seam statistics over many chapters", "[.seams]") {
    TempDir dir;
    std::vector<int> chapters;
    unsigned r = 7;
    const int count = std::getenv("MANY") ? std::atoi(std::getenv("MANY")) : 40;
    for (int i = 0; i < count; ++i) {
        r = r * 1103515245 + 12345;
        chapters.push_back(30 + static_cast<int>((r >> 8) % 90));
    }
    FilmAudio audio = narrated_film(dir.path, chapters);
    if (std::getenv("NOMUSIC")) audio.music = {};
    const std::int64_t n = audio.samples();
    const auto stats = join_chapters(audio, chapters, dir.path);
    const std::vector<float> joined = render_test::decode_stereo(dir.path / "film.m4a");
    const std::vector<float> single = one_encode(audio, dir.path);
    const std::vector<float> pcm = mix(audio, 0, n);
    double ratio = 0, excess = 0;
    for (const std::int64_t seam : seams_of(chapters, audio.fps)) {
        const double e = max_error(joined, pcm, seam - 2048, seam + 2048);
        const double e1 = max_error(single, pcm, seam - 2048, seam + 2048);
        ratio = std::max(ratio, e / (e1 + 1e-4));
        excess = std::max(excess, e - e1);
    }
    WARN(stats.seams << " seams, " << stats.exact_seams << " exact; near a seam the joined track's"
                     << " error is at most " << ratio << " times one encode's (+" << excess
                     << "); whole track: " << max_error(joined, pcm, 0, n) << " against "
                     << max_error(single, pcm, 0, n));
    CHECK(ratio < 2);
}
