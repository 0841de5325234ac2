// Cache planning; see plan.hpp.
#include "render/film/plan.hpp"

#include <map>
#include <set>
#include <thread>

#include "render/film/sound_plan.hpp"
#include "render/sys/parallel.hpp"
#include "render/sys/stopwatch.hpp"
#include "story/time/film_time.hpp"

namespace render {

namespace {

// Keys and lookups run on every core: no encoder runs yet, whatever `jobs` says about drawing.
int cores() { return static_cast<int>(std::thread::hardware_concurrency()); }

// Every chapter of the films taken, in order, with its length on the film's clock.
std::vector<Planned> chapters_of(const std::vector<FilmJob>& films,
                                 const std::vector<bool>& taken) {
    std::vector<Planned> out;
    for (std::size_t i = 0; i < films.size(); ++i) {
        if (!taken[i]) continue;
        const story::FilmTime time(films[i].board.chapters, films[i].video.fps);
        for (std::size_t c = 0; c < time.chapters().size(); ++c)
            out.push_back({i, &films[i].board.chapters[c], {}, {}, {}, time.chapter(c).frames});
    }
    return out;
}

}  // namespace

std::vector<Planned> plan_chapters(const std::vector<FilmJob>& films,
                                   const std::vector<bool>& taken, const Fonts& fonts,
                                   const EncoderSettings& encoder, const ChapterCode& code,
                                   const SegmentCache& cache, bool read_records,
                                   const CancelToken& cancel) {
    std::vector<Planned> out = chapters_of(films, taken);
    run_parallel(cores(), out.size(), cancel, [&](std::size_t i, const CancelToken&) {
        const Stopwatch watch;
        Planned& p = out[i];
        p.first = first_key(*p.spec, films[p.film].video, encoder, fonts, code.digest);
        if (auto k = read_records ? cache.recorded(p.first) : std::nullopt) {
            p.key = std::move(*k);
            p.recorded = p.cached = true;
        }
        p.seconds = watch.seconds();
    });
    for (Planned& p : out)  // one at a time, as chapters always were made
        if (!p.recorded) p.chapter = code.make(*p.spec, films[p.film].video, fonts);
    run_parallel(cores(), out.size(), cancel, [&](std::size_t i, const CancelToken&) {
        Planned& p = out[i];
        if (p.recorded) return;
        const Stopwatch watch;
        p.key = segment_key(*p.spec, *p.chapter, films[p.film].video, encoder, fonts);
        p.seconds += watch.seconds();
    });
    return out;
}

void record_first_keys(const std::vector<Planned>& planned, const SegmentCache& cache) {
    std::set<std::string> done;
    for (const Planned& p : planned)
        if (!p.recorded && done.insert(p.first.key).second) cache.record(p.first, p.key);
}

// Each lookup reads and hashes its segment.
template <class P>
std::vector<P*> find_misses(std::vector<P>& planned, const SegmentCache& cache, bool read_cache,
                            const CancelToken& cancel) {
    std::map<std::string, P*> first;  // key -> its first chapter
    for (P& p : planned) first.emplace(p.key.key, &p);
    std::vector<P*> firsts;
    for (const auto& [key, p] : first) firsts.push_back(p);
    run_parallel(cores(), firsts.size(), cancel, [&](std::size_t i, const CancelToken&) {
        const Stopwatch watch;
        P& p = *firsts[i];
        if (p.cached)
            cache.touch(p.key);
        else
            p.cached = read_cache && cache.lookup(p.key);
        p.seconds += watch.seconds();
    });
    std::vector<P*> misses;
    for (P& p : planned) {
        if (&p != first.at(p.key.key)) p.cached = true;  // a hit, or made once for its first
        if (!p.cached) misses.push_back(&p);
    }
    return misses;
}

template std::vector<Planned*> find_misses(std::vector<Planned>&, const SegmentCache&, bool,
                                           const CancelToken&);
template std::vector<PlannedSound*> find_misses(std::vector<PlannedSound>&, const SegmentCache&,
                                                bool, const CancelToken&);

std::vector<PendingSegment> pending_segments(const std::vector<FilmJob>& films, const Fonts& fonts,
                                             const std::string& cache_dir,
                                             const EncoderSettings& encoder,
                                             const ChapterCode& code) {
    const SegmentCache cache(cache_dir);
    std::vector<Planned> planned =
        plan_chapters(films, std::vector<bool>(films.size(), true), fonts, encoder, code, cache,
                      /*read_records=*/true, process_token());
    std::set<std::string> seen;
    std::vector<PendingSegment> out;
    for (const Planned& p : planned)
        if (seen.insert(p.key.key).second && !p.cached && !cache.valid(p.key))
            out.push_back(
                {films[p.film].board.file, p.spec->id, films[p.film].board.video.lang, p.film});
    return out;
}

}  // namespace render
