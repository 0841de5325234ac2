// Cache planning; see plan.hpp.
#include "render/film/plan.hpp"

#include <cctype>
#include <filesystem>
#include <map>
#include <set>

#include "render/sys/stopwatch.hpp"
#include "story/film_time.hpp"

namespace render {

bool assembled_from_segments(const std::string& output) {
    std::string ext = std::filesystem::path(output).extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext == ".mp4";
}

std::vector<Planned> plan_chapters(const std::vector<FilmJob>& films, const Fonts& fonts,
                                   const EncoderSettings& encoder, bool segments_only) {
    std::vector<Planned> out;
    for (std::size_t i = 0; i < films.size(); ++i) {
        if (!segments_only && !assembled_from_segments(films[i].output)) continue;
        const story::FilmTime time(films[i].board.chapters, films[i].video.fps);
        for (std::size_t c = 0; c < time.chapters().size(); ++c) {
            const story::ChapterSpec& spec = films[i].board.chapters[c];
            Planned p{i,
                      &spec,
                      story::make_chapter(spec, films[i].video, fonts),
                      {},
                      time.chapter(c).frames};
            p.key = segment_key(spec, *p.chapter, films[i].video, encoder, fonts);
            out.push_back(std::move(p));
        }
    }
    return out;
}

std::vector<Planned*> find_misses(std::vector<Planned>& planned, const SegmentCache& cache,
                                  bool read_cache) {
    std::map<std::string, bool> seen;  // key -> hit
    std::vector<Planned*> misses;
    for (Planned& p : planned) {
        const Stopwatch watch;
        auto [it, first] = seen.emplace(p.key.key, false);
        if (first) it->second = read_cache && cache.lookup(p.key);
        p.cached = !first || it->second;
        if (!p.cached) misses.push_back(&p);
        p.seconds = watch.seconds();
    }
    return misses;
}

std::vector<PendingSegment> pending_segments(const std::vector<FilmJob>& films, const Fonts& fonts,
                                             const std::string& cache_dir,
                                             const EncoderSettings& encoder) {
    std::vector<Planned> planned = plan_chapters(films, fonts, encoder, /*segments_only=*/true);
    const SegmentCache cache(cache_dir);
    std::set<std::string> seen;
    std::vector<PendingSegment> out;
    for (const Planned& p : planned)
        if (seen.insert(p.key.key).second && !cache.valid(p.key))
            out.push_back({films[p.film].board.file, p.spec->id});
    return out;
}

}  // namespace render
