// Films with sound end to end through render_films, the director's entry point (narrated_film):
// the MP4's AAC track and the WebM's Opus decoded with libav, loudness, a cue on its frame, the
// sound-only outputs, and the storyboard's bad sound files. The sound segments in the cache:
// sound_segments_test.cpp.
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <map>

#include "render/container/video_probe.hpp"
#include "render/film/director.hpp"
#include "render/inputs/video_options.hpp"
#include "render/sound/aac_segment.hpp"
#include "render/sound/decode/audio_decode.hpp"
#include "render/sound/film_audio.hpp"
#include "render/sys/stopwatch.hpp"
#include "story/load/load.hpp"
#include "story/time/film_time.hpp"
#include "tests/catch.hpp"
#include "tests/render/cli.hpp"
#include "tests/render/narrated_film.hpp"
#include "tests/render/sounds.hpp"

namespace fs = std::filesystem;
using namespace narrated_film;
using render::FilmJob;
using render_test::slurp;
using render_test::TempDir;

TEST_CASE("a narrated MP4 has an AAC track of 48 kHz stereo exactly as long as its video",
          "[sound]") {
    TempDir dir;
    const FilmJob film = narrated(dir.path, "film.mp4");
    const render::RenderReport report = render_one(film, dir.path / "cache");
    const std::string path = film.output;

    const render::AudioProbe sound = render::probe_audio(path);
    CHECK(sound.codec == "aac");
    CHECK(sound.sample_rate == 48000);
    CHECK(sound.channels == 2);
    const render::VideoInfo video = render::probe_video(path);
    CHECK(video.frame_count == 255);
    CHECK(sound.seconds == Approx(video.duration_seconds).margin(1e-3));  // the edit list's end
    const std::vector<float> pcm = render_test::decode_stereo(path);
    CHECK(pcm.size() / 2 >= 17 * 48000);
    CHECK(pcm.size() / 2 < 17 * 48000 + 1024);  // a decoder stops on a whole AAC frame

    // Speech inside every line, near silence between them (no music).
    for (std::size_t i = 0; i < kLines.size(); ++i) {
        const Line& l = kLines[i];
        INFO("line " << i);
        CHECK(db(render_test::rms(pcm, at(l.start + 0.2), at(l.start + l.seconds - 0.2))) > -30);
        const double next = i + 1 < kLines.size() ? kLines[i + 1].start : 17.0;
        CHECK(db(render_test::rms(pcm, at(l.start + l.seconds + 0.05), at(next - 0.05))) < -70);
    }
    REQUIRE(report.sound);
    CHECK(report.sound->lufs == Approx(-16).margin(1));
    CHECK(report.sound->true_peak_db <= -1);
    CHECK(report.sound->seconds == Approx(17).margin(1024 / kRate));
    CHECK(report.sound->sample_rate == 48000);
    CHECK(sound_cached(report) ==
          std::map<std::string, bool>{{"intro", false}, {"bytes", false}, {"outro", false}});
    CHECK(files_with(dir.path / "cache", ".m4a").size() == 3);
}

TEST_CASE("a cue at the last beat sounds on its video frame", "[sound]") {
    TempDir dir;
    FilmJob film = narrated(dir.path, "film.mp4");
    std::vector<float> click(2400, 0.0f);
    for (int i = 0; i < 48; ++i) click[i] = 0.5f;  // a 1 ms pulse
    render_test::write_wav(dir.path / "click.wav", click, 1, 48000);
    film.board.chapters[2].beats[0].sound = "click.wav";  // beside the storyboard
    story::Diagnostics diags;
    film.sound = render::film_audio(film.board, film.video.fps, {}, diags);
    REQUIRE(diags.empty());
    REQUIRE(film.sound);
    CHECK(film.sound->clips.size() == 1);
    render_one(film, dir.path / "cache");
    const std::vector<float> pcm = render_test::decode_stereo(film.output);
    std::int64_t onset = -1;
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(pcm.size() / 2) && onset < 0; ++i)
        if (std::abs(pcm[2 * i]) > 0.1) onset = i;
    const story::FilmTime time(film.board.chapters, 15);
    const double beat = time.seconds(time.chapter(2).beats[0].film_frame);
    CHECK(std::abs(onset / kRate - beat) < 0.5 / 15);  // well within a video frame
    CHECK(std::abs(onset / kRate - beat) < 0.002);
}

TEST_CASE("a WebM carries the sound as Opus, as long as its video", "[sound]") {
    TempDir dir;
    const FilmJob film = narrated(dir.path, "film.webm");
    const render::RenderReport report = render_one(film, dir.path / "cache");
    const render::AudioProbe sound = render::probe_audio(film.output);
    CHECK(sound.codec == "opus");
    CHECK(sound.sample_rate == 48000);
    CHECK(sound.channels == 2);
    const std::vector<float> pcm = render_test::decode_stereo(film.output);
    CHECK(static_cast<double>(pcm.size() / 2) == Approx(17 * kRate).margin(960));
    for (const Line& l : kLines)
        CHECK(db(render_test::rms(pcm, at(l.start + 0.2), at(l.start + l.seconds - 0.2))) > -30);
    REQUIRE(report.sound);
    CHECK(report.sound->lufs == Approx(-16).margin(1));
    CHECK(report.sound->true_peak_db <= -1);
    FilmJob again = film;
    again.output = (dir.path / "again.webm").string();
    render_one(again, dir.path / "cache");
    CHECK(slurp(film.output) == slurp(again.output));
}

TEST_CASE("the sound alone: an M4A of the film's AAC track, a WAV of the mix", "[sound]") {
    TempDir dir;
    FilmJob film = narrated(dir.path, "film.mp4");
    render_one(film, dir.path / "cache");
    film.output = (dir.path / "film.m4a").string();
    const render::RenderReport m4a = render_one(film, dir.path / "cache", 1, true);
    CHECK(m4a.frames_drawn == 0);
    CHECK(sound_cached(m4a) ==
          std::map<std::string, bool>{{"intro", true}, {"bytes", true}, {"outro", true}});
    CHECK(render::probe_audio(film.output).codec == "aac");
    CHECK(render_test::decode_stereo(film.output) ==
          render_test::decode_stereo(dir.path / "film.mp4"));

    film.output = (dir.path / "film.wav").string();
    const render::RenderReport wav = render_one(film, dir.path / "cache", 1, true);
    const std::vector<float> pcm = render_test::decode_stereo(film.output);
    CHECK(pcm.size() == 2 * 17 * 48000);  // exactly the film's samples
    render::MixWindow mix(*film.sound, 0, film.sound->samples());
    std::vector<float> expected(pcm.size());
    mix.read(expected.data(), expected.size() / 2);
    CHECK(pcm == expected);
    REQUIRE(wav.sound);
    // The AAC track lacks the lines' noise above its band limit (about 16 kHz).
    CHECK(wav.sound->lufs == Approx(m4a.sound->lufs).margin(0.3));
}

TEST_CASE("bad sound files are errors at their key: unreadable, not audio, music too short",
          "[sound]") {
    TempDir dir;
    story::Diagnostics load;
    auto board = story::parse_storyboard(kStoryboard, (dir.path / "sound.yaml").string(), load);
    REQUIRE(board);
    render_test::write_text(dir.path / "notes.txt", "not a sound\n");
    render_test::write_wav(dir.path / "short.wav", render_test::tone(5.0, 440, 0.1), 1, 48000);
    board->chapters[0].beats[0].sound = "missing.wav";
    board->chapters[0].beats[0].sound_pos = {12, 9};
    board->chapters[1].beats[1].sound = "notes.txt";
    board->chapters[1].beats[1].sound_pos = {22, 9};
    board->video.music = {"short.wav", -18, {4, 10}};
    story::Diagnostics diags;
    render::film_audio(*board, 15, {}, diags);
    const std::string file = (dir.path / "sound.yaml").string();
    REQUIRE(diags.list().size() == 3);
    CHECK(diags.list()[0].file == file);
    CHECK(diags.list()[0].pos == story::SourcePos{12, 9});
    CHECK(diags.list()[0].message == "cannot read sound 'missing.wav': No such file or directory");
    CHECK(diags.list()[1].pos == story::SourcePos{22, 9});
    CHECK(diags.list()[1].message.rfind("sound 'notes.txt' is not a sound libav can read (", 0) ==
          0);
    CHECK(diags.list()[2].pos == story::SourcePos{4, 10});
    CHECK(diags.list()[2].message ==
          "music 'short.wav' lasts 0:05.0, less than the film's 0:17.0 (music is not looped: "
          "give a longer track, or end the film sooner)");

    story::Diagnostics none;
    board->chapters[0].beats[0].sound.clear();
    board->chapters[1].beats[1].sound.clear();
    board->video.music = {};
    CHECK_FALSE(render::film_audio(*board, 15, {}, none));  // nothing sounds: a silent film
    CHECK(none.empty());
}

// The figures in docs/commands/voices.md, "Sound": the default film at --quality low (QUALITY
// overrides) with a speech-like line at every `say:` (its reading time, cut before the next beat)
// and a click at the last beat, rendered cold into a fresh cache, then the mix and the AAC encode
// alone. SOUND=0 renders it silent; run each under /usr/bin/time -v for the peak memory:
//   SOUND=1 /usr/bin/time -v build/test_render "[.bench]"
TEST_CASE("the default film narrated: render, mix and encode times, lip-sync", "[.bench]") {
    TempDir dir;
    const fs::path storyboard =
        fs::path(SHARDREEL_SOURCE_DIR) / "storyboards/distributed-training.yaml";
    story::Diagnostics diags;
    auto board = story::parse_storyboard(slurp(storyboard), storyboard.string(), diags);
    REQUIRE(board);
    render::VideoOverrides overrides;
    overrides.quality = std::getenv("QUALITY") ? std::getenv("QUALITY") : "low";
    story::Video video;
    REQUIRE_FALSE(render::resolve_video(board->video, overrides, video));
    FilmJob film{*board, video, (dir.path / "film.mp4").string()};
    const bool sound = !std::getenv("SOUND") || std::string(std::getenv("SOUND")) != "0";
    std::map<std::pair<std::size_t, std::size_t>, render::SpokenLine> lines;
    unsigned seed = 1;
    for (std::size_t c = 0; c < board->chapters.size() && sound; ++c) {
        const auto& beats = board->chapters[c].beats;
        for (std::size_t b = 0; b < beats.size(); ++b) {
            if (beats[b].say.empty()) continue;
            const double until =
                b + 1 < beats.size() ? beats[b + 1].at : board->chapters[c].duration;
            const double seconds =
                std::min(std::max(1.0, beats[b].say.size() / 15.0), until - beats[b].at - 0.2);
            const fs::path path = dir.path / ("line" + std::to_string(seed) + ".f32");
            render_test::write_f32(path, render_test::speech_like(seconds, seed));
            lines[{c, b}] = {path.string(), "line" + std::to_string(seed++)};
        }
    }
    std::vector<float> click(2400, 0.0f);
    for (int i = 0; i < 48; ++i) click[i] = 0.5f;
    render_test::write_wav(dir.path / "click.wav", click, 1, 48000);
    story::Beat& last = film.board.chapters.back().beats.back();
    last.sound = (dir.path / "click.wav").string();
    lines.erase({film.board.chapters.size() - 1, film.board.chapters.back().beats.size() - 1});
    const render::SpeechLookup speech = [&](std::size_t c, std::size_t b) {
        const auto it = lines.find({c, b});
        return it == lines.end() ? std::nullopt : std::optional<render::SpokenLine>(it->second);
    };
    if (sound) film.sound = render::film_audio(film.board, video.fps, speech, diags);
    REQUIRE(diags.empty());

    render::BatchOptions options;
    options.cache_dir = (dir.path / "cache").string();
    options.measure_sound = sound;
    render::CancelToken cancel;
    render::Stopwatch watch;
    const auto reports = render::render_films({film}, fonts(), options, cancel, {});
    const double cold = watch.seconds();
    watch = {};
    render::render_films({film}, fonts(), options, cancel, {});
    const double measured = watch.seconds();
    options.measure_sound = false;
    watch = {};
    render::render_films({film}, fonts(), options, cancel, {});
    WARN("cold render " << cold << " s, warm " << watch.seconds() << " s (" << measured
                        << " s measuring the sound), sound " << sound);
    if (!sound) return;
    const render::Loudness& l = *reports[0].sound;
    WARN("loudness " << l.lufs << " LUFS, true peak " << l.true_peak_db << " dBTP, " << l.seconds
                     << " s");
    const story::FilmTime time(film.board.chapters, video.fps);
    const auto& beat = time.chapters().back().beats.back();
    const double expected = time.seconds(beat.film_frame);
    render::AudioReader reader(film.output, 2);  // streamed: the whole track would be 99 MB
    std::int64_t onset = static_cast<std::int64_t>((expected - 0.1) * kRate);
    reader.skip(onset);
    float frame[2] = {0, 0};
    while (reader.read(frame, 1) == 1 && std::abs(frame[0]) < 0.2) ++onset;
    WARN("last beat at " << expected << " s, its click decoded at " << onset / kRate
                         << " s: offset " << (onset / kRate - expected) * 1000 << " ms");
    const std::int64_t n = film.sound->samples();
    watch = {};
    render::MixWindow(*film.sound, 0, n).drain([](const float*, std::size_t) {});
    const double mix = watch.seconds();
    watch = {};
    {
        render::TempFile file((dir.path / "one.m4a").string());
        render::write_aac_segment(*film.sound, render::aac_window(0, n, n), file);
    }
    const double both = watch.seconds();
    WARN("per minute of sound: mix " << mix * 60 * kRate / n << " s, AAC encode "
                                     << (both - mix) * 60 * kRate / n << " s");
    // What sound adds to a cold render: every chapter's segment mixed and encoded (on every
    // core), the track joined.
    FilmJob alone = film;
    alone.output = (dir.path / "alone.m4a").string();
    options.cache_dir = (dir.path / "cache-sound").string();
    options.sound_only = true;
    const std::clock_t cpu = std::clock();
    watch = {};
    render::render_films({alone}, fonts(), options, cancel, {});
    WARN("the sound's segments from a cold cache: " << watch.seconds() << " s wall, "
                                                    << double(std::clock() - cpu) / CLOCKS_PER_SEC
                                                    << " s CPU");
}
