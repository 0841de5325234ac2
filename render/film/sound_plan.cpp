// Sound planning and encoding; see sound_plan.hpp.
#include "render/film/sound_plan.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "render/sinks/sink.hpp"
#include "render/sound/audio_encoder.hpp"
#include "render/sound_digest.hpp"  // generated at build time
#include "render/sys/error.hpp"
#include "render/sys/hash.hpp"
#include "render/sys/parallel.hpp"
#include "render/sys/stopwatch.hpp"
#include "render/sys/temp_file.hpp"
#include "story/storyboard/time.hpp"
#include "story/time/film_time.hpp"

namespace render {

bool sound_from_segments(const std::string& output) {
    const std::string ext = lowercase_extension(output);
    return ext == ".mp4" || ext == ".m4a";
}

namespace {

// The clips in the mixer's order (render/sound/audio_mix.cpp sums them by start, stably).
nlohmann::json clips_heard(const FilmAudio& sound, std::int64_t from, std::int64_t to) {
    std::vector<const AudioClip*> heard;
    for (const AudioClip& c : sound.clips)
        if (c.frames > 0 && c.start < to && c.start + c.frames > from) heard.push_back(&c);
    std::stable_sort(heard.begin(), heard.end(),
                     [](const AudioClip* a, const AudioClip* b) { return a->start < b->start; });
    nlohmann::json out = nlohmann::json::array();
    for (const AudioClip* c : heard) out.push_back({c->start, c->frames, c->digest});
    return out;
}

nlohmann::json music_heard(const FilmAudio& sound, const AacWindow& w) {
    if (sound.music.path.empty()) return nullptr;
    const std::int64_t samples = sound.samples();
    return {{"digest", sound.music.digest},
            {"level_db", sound.music.level_db},
            {"film_samples",
             w.input_end > fade_out_start(samples) ? nlohmann::json(samples) : nlohmann::json()}};
}

}  // namespace

SegmentKey sound_key(const FilmAudio& sound, const AacWindow& w) {
    const nlohmann::json inputs = {
        {"sound",
         {{"samples", {w.input_begin, w.input_end}},
          {"frames", {w.first - w.lead, w.end}},
          {"clips", clips_heard(sound, window_warmup(w.input_begin), w.input_end)},
          {"music", music_heard(sound, w)}}},
        {"encoder", to_string(aac_setup())},
        {"mixer", mix_settings()},
        {"code", SHARDREEL_SOUND_DIGEST},
    };
    std::string text = inputs.dump();
    return {xxh3_hex(text), std::move(text), static_cast<int>(w.end - (w.first - w.lead)),
            SegmentKind::sound};
}

std::vector<PlannedSound> plan_sound(const std::vector<FilmJob>& films) {
    std::vector<PlannedSound> out;
    for (std::size_t i = 0; i < films.size(); ++i) {
        const FilmJob& film = films[i];
        if (!film.sound || !sound_from_segments(film.output)) continue;
        const story::FilmTime time(film.board.chapters, film.video.fps);
        if (film.sound->fps != film.video.fps || film.sound->frames != time.frames())
            throw SystemError("the sound of " + film.board.file + " is not on its video's clock");
        const std::int64_t samples = film.sound->samples();
        for (std::size_t c = 0; c < time.chapters().size(); ++c) {
            const story::ChapterTime& ch = time.chapter(c);
            const AacWindow w = aac_window(film_sample(ch.start, film.video.fps),
                                           film_sample(ch.end(), film.video.fps), samples);
            out.push_back({i, c, w, sound_key(*film.sound, w)});
        }
    }
    return out;
}

std::vector<const PlannedSound*> film_sound(const std::vector<PlannedSound>& planned,
                                            std::size_t film) {
    std::vector<const PlannedSound*> out;
    for (const PlannedSound& p : planned)
        if (p.film == film) out.push_back(&p);
    return out;
}

void encode_sound(const std::vector<PlannedSound*>& misses, const std::vector<FilmJob>& films,
                  const SegmentCache& cache, int workers, const CancelToken& cancel) {
    run_parallel(workers, misses.size(), cancel, [&](std::size_t i, const CancelToken& batch) {
        PlannedSound& p = *misses[i];
        const Stopwatch watch;
        const FilmJob& film = films[p.film];
        try {
            TempFile file(cache.segment_path(p.key));
            write_aac_segment(*film.sound, p.window, file, &batch);
            file.commit();
            cache.commit(p.key);
        } catch (const SystemError& e) {
            throw SystemError(std::string(e.what()) + " (the sound of chapter '" +
                              film.board.chapters[p.chapter].id + "' of " + film.board.file + ")");
        }
        p.seconds += watch.seconds();
    });
}

}  // namespace render
