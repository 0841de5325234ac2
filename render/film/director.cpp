// Orchestration of films; see director.hpp.
#include "render/film/director.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>
#include <thread>

#include "render/film/assemble.hpp"
#include "render/film/cache_prune.hpp"
#include "render/film/direct.hpp"
#include "render/film/draw_segments.hpp"
#include "render/film/film_record.hpp"
#include "render/film/plan.hpp"
#include "render/film/sound_plan.hpp"
#include "render/sinks/sink.hpp"
#include "render/sys/files.hpp"
#include "render/sys/parallel.hpp"
#include "render/sys/stopwatch.hpp"
#include "render/sys/temp_dir.hpp"

namespace render {

namespace {

// The film's report from its planned chapters, in order, and those chapters.
RenderReport film_report(std::size_t film, const std::vector<Planned>& planned,
                         std::vector<const Planned*>& chapters) {
    RenderReport report;
    for (const Planned& p : planned) {
        if (p.film != film) continue;
        chapters.push_back(&p);
        report.chapters.push_back({p.spec->id, p.cached, p.frames, p.seconds});
        if (!p.cached) report.frames_drawn += p.frames;
    }
    return report;
}

// Each chapter's sound segment in the report (a sound-only report gets its chapters here).
void report_sound(const FilmJob& film, const std::vector<const PlannedSound*>& sound,
                  RenderReport& report) {
    for (const PlannedSound* s : sound) {
        if (report.chapters.size() <= s->chapter)
            report.chapters.push_back({film.board.chapters[s->chapter].id, s->cached, 0, 0});
        ChapterReport& c = report.chapters[s->chapter];
        c.sound_cached = s->cached;
        c.seconds += s->seconds;
    }
}

// GIFs and PNG sequences have no sound.
bool carries_sound(const std::string& output) {
    const std::string ext = lowercase_extension(output);
    return ext == ".webm" || ext == ".wav" || sound_from_segments(output);
}

void measure(const FilmJob& film, const BatchOptions& options, RenderReport& report) {
    if (options.measure_sound && film.sound && carries_sound(film.output))
        report.sound = measure_loudness(film.output);
}

bool takes_segments(const std::vector<FilmJob>& films, const BatchOptions& options) {
    for (const FilmJob& f : films) {
        const bool pictures =
            !options.sound_only && (options.segment_only || assembled_from_segments(f.output));
        if (pictures || (f.sound && sound_from_segments(f.output))) return true;
    }
    return false;
}

// The segment cache of this run: --cache, cache/ beside the first output, or with --no-cache
// a scratch directory beside it (removed with `scratch`) when some output takes segments.
SegmentCache open_cache(const std::vector<FilmJob>& films, const BatchOptions& options,
                        std::optional<TempDir>& scratch) {
    if (!options.use_cache && takes_segments(films, options)) {
        ensure_parent_dir(films.front().output);
        scratch.emplace(films.front().output + ".segments");
        return SegmentCache(scratch->path());
    }
    return SegmentCache(options.cache_dir.empty() ? default_cache_dir(films.front().output)
                                                  : options.cache_dir);
}

// Never a segment the run used: planned, looked up, or joined into a film kept as it was.
void prune(const SegmentCache& cache, const BatchOptions& options,
           const std::vector<FilmJob>& films, const std::vector<Planned>& planned,
           const std::vector<PlannedSound>& sounds, std::set<std::string> used = {}) {
    for (const Planned& p : planned) used.insert(p.key.key);
    for (const PlannedSound& s : sounds) used.insert(s.key.key);
    prune_after_render(cache.dir(), options, films, std::move(used));
}

int cores() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

// The films' sound segments, planned and looked up (the cache prepared if there are any), but
// for the films `kept` marks.
std::vector<PlannedSound> look_up_sound(const std::vector<FilmJob>& films, SegmentCache& cache,
                                        const BatchOptions& options, const CancelToken& cancel,
                                        std::vector<PlannedSound*>& misses,
                                        const std::vector<bool>& kept = {}) {
    std::vector<PlannedSound> sounds = plan_sound(films);
    std::erase_if(sounds,
                  [&](const PlannedSound& s) { return s.film < kept.size() && kept[s.film]; });
    if (sounds.empty()) return sounds;
    cache.prepare();
    misses = find_misses(sounds, cache, options.use_cache, cancel);
    return sounds;
}

// The pictures' missing segments drawn by `jobs` workers while the sound's are encoded beside
// them at the lowest priority: the drawing keeps the cores about 91% busy, and the sound takes
// what it leaves (work at nice 19 beside it still slows it by about a third of that work's CPU:
// 12 s of speech made a silent render 4.1 s longer), so a cold render waits for it little (its
// threads end with it: a thread cannot raise its priority back). One sound worker a core, not a
// core left over: what sound is left when the drawing ends is encoded on every core (farm-bench,
// 3 pairs, the default film with its lines spoken: 123.8 s against 124.3 s). The first failure
// stops both.
void make_segments(const std::vector<Planned*>& pictures, const std::vector<PlannedSound*>& sound,
                   const std::vector<FilmJob>& films, const SegmentCache& cache, const Fonts& fonts,
                   const BatchOptions& options, const CancelToken& cancel,
                   const std::function<void(const Progress&)>& on_progress) {
    run_parallel(2, 2, cancel, [&](std::size_t i, const CancelToken& batch) {
        if (i == 0) {
            draw_segments(pictures, films, cache, fonts, options.jobs, options.encoder, batch,
                          on_progress);
            return;
        }
        in_idle_thread([&] { encode_sound(sound, films, cache, cores(), batch); });
    });
}

std::vector<RenderReport> render_sound_only(const std::vector<FilmJob>& films,
                                            const BatchOptions& options,
                                            const CancelToken& cancel) {
    const Stopwatch watch;
    std::optional<TempDir> scratch;
    SegmentCache cache = open_cache(films, options, scratch);
    for (const FilmJob& film : films) check_writable(film.output);
    std::vector<PlannedSound*> misses;
    const std::vector<PlannedSound> sounds = look_up_sound(films, cache, options, cancel, misses);
    encode_sound(misses, films, cache, cores(), cancel);
    std::vector<RenderReport> reports;
    for (std::size_t i = 0; i < films.size(); ++i) {
        cancel.check();
        const std::vector<const PlannedSound*> sound = film_sound(sounds, i);
        assemble_sound(films[i], sound, cache, cancel);
        RenderReport report;
        report.output = films[i].output;
        report_sound(films[i], sound, report);
        measure(films[i], options, report);
        report.wall_seconds = watch.seconds();
        reports.push_back(std::move(report));
    }
    prune(cache, options, films, {}, sounds);
    return reports;
}

// What a render goes by: its films, options and cache, and each film's key and whether its
// record found it unchanged.
struct Run {
    const std::vector<FilmJob>& films;
    const BatchOptions& options;
    const SegmentCache& cache;
    std::vector<FilmState> states;
};

// A film has no sound when its FilmJob has none (--no-audio, or nothing sounds).
std::vector<bool> muted(const std::vector<FilmJob>& films) {
    std::vector<bool> out;
    for (const FilmJob& film : films) out.push_back(!film.sound);
    return out;
}

std::vector<bool> kept(const Run& run) {
    std::vector<bool> out;
    for (const FilmState& s : run.states) out.push_back(s.kept.has_value());
    return out;
}

// The films whose chapters are planned: those that take segments, but the ones kept.
std::vector<bool> taken(const Run& run) {
    std::vector<bool> out;
    for (std::size_t i = 0; i < run.films.size(); ++i)
        out.push_back(!run.states[i].kept &&
                      (run.options.segment_only || assembled_from_segments(run.films[i].output)));
    return out;
}

std::string file_name(const std::string& path) {
    return std::filesystem::path(path).filename().string();
}

// Film i's report; its MP4 assembled (and recorded, with the segments joined) unless
// --segment-only.
RenderReport assembled(const Run& run, std::size_t i, const std::vector<Planned>& planned,
                       const std::vector<PlannedSound>& sounds) {
    const FilmJob& film = run.films[i];
    std::vector<const Planned*> chapters;
    RenderReport report = film_report(i, planned, chapters);
    report.output = run.options.segment_only ? "" : film.output;
    const std::vector<const PlannedSound*> sound = film_sound(sounds, i);
    report_sound(film, sound, report);
    if (run.options.segment_only) return report;
    const std::vector<std::string> files = assemble(film, chapters, sound, run.cache);
    measure(film, run.options, report);
    if (!run.states[i].key) return report;
    std::vector<std::string> segments;
    for (const Planned* p : chapters) segments.push_back(file_name(run.cache.segment_path(p->key)));
    for (const PlannedSound* s : sound)
        segments.push_back(file_name(run.cache.segment_path(s->key)));
    record_film(film, *run.states[i].key, files, segments, run.cache.dir());
    return report;
}

}  // namespace

std::vector<RenderReport> render_films(const std::vector<FilmJob>& films, const Fonts& fonts,
                                       const BatchOptions& options, const CancelToken& cancel,
                                       const std::function<void(const Progress&)>& on_progress) {
    if (films.empty()) return {};
    if (options.sound_only) return render_sound_only(films, options, cancel);
    const Stopwatch watch;
    std::optional<TempDir> scratch;  // --no-cache: private segments, removed with the directory
    SegmentCache cache = open_cache(films, options, scratch);
    Run run{films, options, cache, film_states(films, fonts, options, cache.dir(), muted(films))};
    std::vector<Planned> planned = plan_chapters(films, taken(run), fonts, options.encoder,
                                                 options.code, cache, options.use_cache, cancel);
    for (std::size_t i = 0; i < films.size(); ++i)  // fail now, not after minutes of drawing
        if (!options.segment_only && !run.states[i].kept) check_writable(films[i].output);
    if (!planned.empty()) cache.prepare();  // not for films that are all .webm, .gif, ...
    const std::vector<Planned*> misses = find_misses(planned, cache, options.use_cache, cancel);
    std::vector<PlannedSound*> sound_misses;
    const std::vector<PlannedSound> sounds =
        options.segment_only
            ? std::vector<PlannedSound>{}
            : look_up_sound(films, cache, options, cancel, sound_misses, kept(run));
    make_segments(misses, sound_misses, films, cache, fonts, options, cancel, on_progress);
    cancel.check();  // interrupted, some segments were never drawn: record none
    if (options.use_cache) record_first_keys(planned, cache);

    std::vector<RenderReport> reports;
    std::set<std::string> used;
    for (std::size_t i = 0; i < films.size(); ++i) {
        cancel.check();
        if (!options.segment_only && !assembled_from_segments(films[i].output)) {
            reports.push_back(render_direct(films[i], fonts, cancel, on_progress));
            measure(films[i], options, reports.back());
            continue;
        }
        if (run.states[i].kept) {
            used.merge(run.states[i].kept->segments);
            reports.push_back(run.states[i].kept->report);
            measure(films[i], options, reports.back());
        } else {
            reports.push_back(assembled(run, i, planned, sounds));
        }
        reports.back().wall_seconds = watch.seconds();
    }
    prune(cache, options, films, planned, sounds, std::move(used));
    return reports;
}

}  // namespace render
