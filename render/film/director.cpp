// Orchestration of films; see director.hpp.
#include "render/film/director.hpp"

#include <filesystem>
#include <optional>
#include <set>

#include "render/film/assemble.hpp"
#include "render/film/direct.hpp"
#include "render/film/draw_segments.hpp"
#include "render/film/plan.hpp"
#include "render/sys/files.hpp"
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

}  // namespace

std::string default_cache_dir(const std::string& output) {
    return (std::filesystem::path(output).parent_path() / "cache").string();
}

std::vector<RenderReport> render_films(const std::vector<FilmJob>& films, const Fonts& fonts,
                                       const BatchOptions& options, const CancelToken& cancel,
                                       const std::function<void(const Progress&)>& on_progress) {
    const Stopwatch watch;
    if (films.empty()) return {};
    std::vector<Planned> planned =
        plan_chapters(films, fonts, options.encoder, options.segment_only, cancel);
    std::optional<TempDir> scratch;  // --no-cache: private segments, removed with the directory
    if (!options.use_cache && !planned.empty()) {
        ensure_parent_dir(films.front().output);
        scratch.emplace(films.front().output + ".segments");
    }
    SegmentCache cache(scratch                     ? scratch->path()
                       : options.cache_dir.empty() ? default_cache_dir(films.front().output)
                                                   : options.cache_dir);
    if (!options.segment_only)  // fail now, not after minutes of drawing
        for (const FilmJob& film : films) check_writable(film.output);
    if (!planned.empty()) cache.prepare();  // not for films that are all .webm, .gif, ...
    const std::vector<Planned*> misses = find_misses(planned, cache, options.use_cache, cancel);
    draw_segments(misses, films, cache, fonts, options.jobs, options.encoder, cancel, on_progress);

    std::vector<RenderReport> reports;
    for (std::size_t i = 0; i < films.size(); ++i) {
        cancel.check();
        if (!options.segment_only && !assembled_from_segments(films[i].output)) {
            reports.push_back(render_direct(films[i], fonts, cancel, on_progress));
            continue;
        }
        std::vector<const Planned*> chapters;
        RenderReport report = film_report(i, planned, chapters);
        report.output = options.segment_only ? "" : films[i].output;
        if (!options.segment_only) assemble(films[i], chapters, cache);
        report.wall_seconds = watch.seconds();
        reports.push_back(std::move(report));
    }
    if (options.use_cache && !planned.empty()) {
        std::set<std::string> keep;
        for (const Planned& p : planned) keep.insert(p.key.key);
        cache.prune(options.cache_limit, keep);
    }
    return reports;
}

}  // namespace render
