// Orchestration of films and stills; see director.hpp.
#include "render/film/director.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <exception>
#include <filesystem>
#include <map>
#include <mutex>
#include <ostream>
#include <set>
#include <thread>

#include "render/av/concat.hpp"
#include "render/film/captions.hpp"
#include "render/sinks/sink.hpp"
#include "render/sys/error.hpp"
#include "render/sys/files.hpp"
#include "render/sys/interrupt.hpp"
#include "render/sys/temp_dir.hpp"
#include "story/chapter.hpp"
#include "story/limits.hpp"
#include "story/load.hpp"
#include "story/time.hpp"
#include "story/units.hpp"

namespace render {

std::optional<story::Storyboard> load_storyboard(const std::string& path, std::ostream& err) {
    std::string error;
    const auto text = read_file(path, error);
    if (!text) {
        err << path << ": error: cannot read: " << error << "\n";
        return std::nullopt;
    }
    story::Diagnostics diags;
    auto board = story::parse_storyboard(*text, path, diags);
    if (!diags.empty()) err << diags.format();
    return board;
}

std::optional<std::string> resolve_video(const story::Video& authored, const VideoOverrides& o,
                                         story::Video& out) {
    out = authored;
    struct Preset {
        const char* name;
        int w, h, fps;
    };
    static constexpr Preset presets[] = {{"low", 854, 480, 15},
                                         {"medium", 1280, 720, 30},
                                         {"high", 1920, 1080, 30},
                                         {"4k", 3840, 2160, 30}};
    if (!o.quality.empty()) {
        const Preset* found = nullptr;
        for (const Preset& p : presets)
            if (o.quality == p.name) found = &p;
        if (!found) return "unknown quality '" + o.quality + "' (expected low, medium, high or 4k)";
        out.width = found->w, out.height = found->h, out.fps = found->fps;
    }
    if (!o.size.empty()) {
        const auto size = story::parse_frame_size(o.size);
        if (!size)
            return "cannot parse size '" + o.size +
                   "' (expected WxH, e.g. 1280x720, up to 7680x4320)";
        if (auto error = story::limits::frame_size_error(*size, o.size)) return *error;
        out.width = size->width, out.height = size->height;
    }
    if (o.fps != 0) {
        if (o.fps < 1 || o.fps > story::limits::kMaxFps)
            return "fps must be between 1 and 120, got " + std::to_string(o.fps);
        out.fps = o.fps;
    }
    if (out.width % 2 || out.height % 2)
        return "video size " + std::to_string(out.width) + "x" + std::to_string(out.height) +
               " must have even width and height for H.264 4:2:0";
    return std::nullopt;
}

namespace {

namespace fs = std::filesystem;

// Captions sit beside the output: out/film.mp4 -> out/film.vtt; for an image sequence
// out/frames/%05d.png they sit beside its directory: out/frames.vtt.
std::string sibling(const std::string& path, const char* ext) {
    fs::path p(path);
    if (p.filename().string().find('%') != std::string::npos) p = p.parent_path();
    return p.replace_extension(ext).string();
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::vector<std::string> split_ids(const std::string& csv) {
    std::vector<std::string> ids;
    std::size_t start = 0;
    while (start <= csv.size()) {
        const std::size_t comma = std::min(csv.find(',', start), csv.size());
        if (comma > start) ids.push_back(csv.substr(start, comma - start));
        start = comma + 1;
    }
    return ids;
}

bool is_mp4(const std::string& path) {
    std::string ext = fs::path(path).extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext == ".mp4";
}

// Counts frames drawn by any worker and reports them one at a time.
class FrameCounter {
  public:
    FrameCounter(long long total, const std::function<void(const Progress&)>& on_progress)
        : on_progress_(on_progress) {
        progress_.total = total;
    }
    void tick(const std::string& chapter) {
        const std::lock_guard lock(mutex_);
        progress_.chapter = chapter;
        ++progress_.done;
        if (on_progress_) on_progress_(progress_);
    }

  private:
    std::mutex mutex_;
    Progress progress_;
    const std::function<void(const Progress&)>& on_progress_;
};

// Draws a chapter's frames into an open sink; stops at a signal or when another worker failed.
void draw_frames(FrameSink& sink, const story::Chapter& chapter, const story::ChapterSpec& spec,
                 int fps, FrameCounter& counter, const std::atomic<bool>& cancel) {
    const int frames = story::frame_count(spec.duration, fps);
    for (int f = 0; f < frames; ++f) {
        if (interrupted() || cancel) throw Interrupted{};
        sink.write(chapter.scene_at(story::time_of_frame(f, fps)));
        counter.tick(spec.id);
    }
}

// The film's .vtt and .srt, written to temporary files and renamed right after the video: a
// failure anywhere (a full disk) leaves whatever was there before untouched.
struct CaptionFiles {
    TempFile vtt, srt;
    explicit CaptionFiles(const FilmJob& film)
        : vtt(sibling(film.output, ".vtt")), srt(sibling(film.output, ".srt")) {
        const auto cues = film_cues(film.board.chapters, film.video.fps);
        write_temp(vtt, to_webvtt(cues));
        write_temp(srt, to_srt(cues));
    }
    void commit() {
        vtt.commit();
        srt.commit();
    }
};

// Runs task(0..count-1) on `workers` threads; the first exception cancels the rest and is
// rethrown once every thread has stopped.
void run_parallel(int workers, std::size_t count,
                  const std::function<void(std::size_t, const std::atomic<bool>&)>& task) {
    std::atomic<std::size_t> next{0};
    std::atomic<bool> cancel{false};
    std::mutex mutex;
    std::exception_ptr error;
    const auto work = [&] {
        for (std::size_t i; !cancel && (i = next++) < count;) {
            try {
                task(i, cancel);
            } catch (...) {
                const std::lock_guard lock(mutex);
                if (!error) error = std::current_exception();
                cancel = true;
            }
        }
    };
    {
        std::vector<std::jthread> threads;
        const std::size_t n = std::min(static_cast<std::size_t>(std::max(workers, 1)), count);
        for (std::size_t w = 1; w < n; ++w) threads.emplace_back(work);
        work();
    }
    if (error) std::rethrow_exception(error);
}

// Keys and lookups run on every core: no encoder runs yet, whatever `jobs` says about drawing.
int cores() { return static_cast<int>(std::thread::hardware_concurrency()); }

// A chapter of one film, its key, and whether its segment must be drawn.
struct Planned {
    std::size_t film = 0;
    const story::ChapterSpec* spec = nullptr;
    std::unique_ptr<story::Chapter> chapter;
    SegmentKey key;
    bool cached = false;  // hit, or drawn for an earlier film in this run
    double seconds = 0;   // keying, looking up and drawing it
};

// Each key hashes every frame's scene: chapters are keyed in parallel.
std::vector<Planned> plan_chapters(const std::vector<FilmJob>& films, const Fonts& fonts,
                                   const EncoderSettings& encoder, bool segments_only) {
    std::vector<Planned> out;
    for (std::size_t i = 0; i < films.size(); ++i) {
        if (!segments_only && !is_mp4(films[i].output)) continue;
        for (const story::ChapterSpec& spec : films[i].board.chapters)
            out.push_back({i, &spec, story::make_chapter(spec, films[i].video, fonts), {}});
    }
    run_parallel(cores(), out.size(), [&](std::size_t i, const std::atomic<bool>&) {
        const auto start = std::chrono::steady_clock::now();
        Planned& p = out[i];
        p.key = segment_key(*p.spec, *p.chapter, films[p.film].video, encoder, fonts);
        p.seconds = seconds_since(start);
    });
    return out;
}

// Looks every key up once, in parallel (each lookup reads and hashes its segment); returns the
// entries whose segments must be drawn (the first of each key).
std::vector<Planned*> find_misses(std::vector<Planned>& planned, const SegmentCache& cache,
                                  bool read_cache) {
    std::map<std::string, Planned*> first;  // key -> its first chapter
    for (Planned& p : planned) first.emplace(p.key.key, &p);
    std::vector<Planned*> firsts;
    for (const auto& [key, p] : first) firsts.push_back(p);
    run_parallel(cores(), firsts.size(), [&](std::size_t i, const std::atomic<bool>&) {
        const auto start = std::chrono::steady_clock::now();
        firsts[i]->cached = read_cache && cache.lookup(firsts[i]->key);
        firsts[i]->seconds += seconds_since(start);
    });
    std::vector<Planned*> misses;
    for (Planned& p : planned) {
        Planned* const owner = first.at(p.key.key);
        if (&p != owner) p.cached = true;  // a hit, or drawn once for its first chapter
        if (!p.cached) misses.push_back(&p);
    }
    return misses;
}

void draw_segments(const std::vector<Planned*>& misses, const std::vector<FilmJob>& films,
                   const SegmentCache& cache, const Fonts& fonts, const BatchOptions& options,
                   const std::function<void(const Progress&)>& on_progress) {
    long long total = 0;
    for (const Planned* p : misses) total += p->key.frames;
    FrameCounter counter(total, on_progress);
    run_parallel(options.jobs, misses.size(), [&](std::size_t i, const std::atomic<bool>& cancel) {
        Planned& p = *misses[i];
        const auto start = std::chrono::steady_clock::now();
        const story::Video& video = films[p.film].video;
        try {
            Mp4Sink sink(fonts, options.encoder);  // aborts (removes its temporary file) on throw
            sink.begin({cache.segment_path(p.key), video.width, video.height, video.fps});
            draw_frames(sink, *p.chapter, *p.spec, video.fps, counter, cancel);
            sink.finish();
            cache.commit(p.key);
        } catch (const SystemError& e) {
            throw SystemError(std::string(e.what()) + " (the segment of chapter '" + p.spec->id +
                              "' of " + films[p.film].board.file + ")");
        }
        p.seconds += seconds_since(start);
    });
}

// Stream-copies the film's segments into its output with chapter markers and captions.
void assemble(const FilmJob& film, const std::vector<const Planned*>& chapters,
              const SegmentCache& cache) {
    std::vector<std::string> inputs;
    ConcatExtras extras;
    int frame = 0;
    for (const Planned* p : chapters) {
        inputs.push_back(cache.segment_path(p->key));
        const std::string& title = p->spec->title.empty() ? p->spec->id : p->spec->title;
        extras.chapters.push_back({title, story::time_of_frame(frame, film.video.fps),
                                   story::time_of_frame(frame + p->key.frames, film.video.fps)});
        frame += p->key.frames;
    }
    // burn and track embed the caption track (burn also draws them); off embeds none.
    if (film.video.captions != story::Captions::off)
        for (const story::Cue& c : film_cues(film.board.chapters, film.video.fps))
            extras.subtitles.push_back({c.start, c.end, c.text});
    ensure_parent_dir(film.output);
    CaptionFiles captions(film);
    TempFile video(film.output);
    concat_mp4(inputs, video, extras);
    video.commit();
    captions.commit();
}

// Frame by frame through make_sink, for outputs that are not MP4 (no segments, no cache).
RenderReport render_direct(const FilmJob& film, const Fonts& fonts,
                           const std::function<void(const Progress&)>& on_progress) {
    const auto start = std::chrono::steady_clock::now();
    ensure_parent_dir(film.output);
    long long total = 0;
    for (const auto& c : film.board.chapters)
        total += story::frame_count(c.duration, film.video.fps);
    FrameCounter counter(total, on_progress);
    const std::atomic<bool> cancel{false};
    RenderReport report{film.output, 0, 0, {}};
    CaptionFiles captions(film);
    auto sink = make_sink(film.output, fonts);
    sink->begin({film.output, film.video.width, film.video.height, film.video.fps});
    try {
        for (const story::ChapterSpec& spec : film.board.chapters) {
            const auto chapter_start = std::chrono::steady_clock::now();
            const auto chapter = story::make_chapter(spec, film.video, fonts);
            draw_frames(*sink, *chapter, spec, film.video.fps, counter, cancel);
            const int frames = story::frame_count(spec.duration, film.video.fps);
            report.chapters.push_back({spec.id, false, frames, seconds_since(chapter_start)});
            report.frames_drawn += frames;
        }
        sink->finish();
    } catch (...) {
        sink->abort();
        throw;
    }
    captions.commit();
    report.wall_seconds = seconds_since(start);
    return report;
}

}  // namespace

std::optional<std::vector<std::string>> expand_storyboards(const std::vector<std::string>& args,
                                                           std::ostream& err) {
    std::vector<std::string> out;
    for (const std::string& arg : args) {
        std::error_code ec;
        if (!fs::is_directory(arg, ec)) {
            out.push_back(arg);
            continue;
        }
        std::vector<std::string> found;
        for (const fs::directory_entry& e : fs::directory_iterator(arg, ec))
            if (e.path().extension() == ".yaml") found.push_back(e.path().string());
        if (found.empty()) {
            err << arg << ": error: directory has no *.yaml storyboards\n";
            return std::nullopt;
        }
        std::sort(found.begin(), found.end());
        out.insert(out.end(), found.begin(), found.end());
    }
    return out;
}

bool chapters_hold_frames(const story::Storyboard& board, int fps, std::ostream& err) {
    bool ok = true;
    for (const story::ChapterSpec& c : board.chapters) {
        if (auto problem = story::limits::frame_length_error(c.duration, fps)) {
            err << story::Diagnostic{board.file, c.pos,
                                     "chapter '" + c.id + "' " + *problem +
                                         "; lengthen it or raise --fps"}
                       .format()
                << "\n";
            ok = false;
        }
    }
    return ok;
}

std::optional<std::vector<FilmJob>> load_films(const std::vector<std::string>& storyboards,
                                               const std::string& only,
                                               const VideoOverrides& overrides, std::ostream& err) {
    const auto paths = expand_storyboards(storyboards, err);
    if (!paths) return std::nullopt;
    std::vector<FilmJob> films;
    bool ok = true;
    for (const std::string& path : *paths) {
        auto board = load_storyboard(path, err);
        if (!board) {
            ok = false;
            continue;
        }
        ok = select_chapters(*board, only, err) && ok;
        story::Video video;
        if (auto problem = resolve_video(board->video, overrides, video)) {
            err << "shardreel: error: " << *problem << "\n";
            ok = false;
        } else {
            ok = chapters_hold_frames(*board, video.fps, err) && ok;
        }
        films.push_back({std::move(*board), video, ""});
    }
    if (!ok) return std::nullopt;
    return films;
}

bool select_chapters(story::Storyboard& board, const std::string& only, std::ostream& err) {
    if (only.empty()) return true;
    std::vector<std::string> known;
    for (const auto& c : board.chapters) known.push_back(c.id);
    const auto ids = split_ids(only);
    bool ok = true;
    for (const std::string& id : ids) {
        if (std::find(known.begin(), known.end(), id) != known.end()) continue;
        const std::string near = story::closest_match(id, known);
        err << "shardreel: error: no chapter '" << id << "' in " << board.file
            << (near.empty() ? "" : " (did you mean '" + near + "'?)") << "\n";
        ok = false;
    }
    std::erase_if(board.chapters, [&](const story::ChapterSpec& c) {
        return std::find(ids.begin(), ids.end(), c.id) == ids.end();
    });
    return ok;
}

std::string default_cache_dir(const std::string& output) {
    return (fs::path(output).parent_path() / "cache").string();
}

std::vector<RenderReport> render_films(const std::vector<FilmJob>& films, const Fonts& fonts,
                                       const BatchOptions& options,
                                       const std::function<void(const Progress&)>& on_progress) {
    const auto start = std::chrono::steady_clock::now();
    if (films.empty()) return {};
    std::vector<Planned> planned =
        plan_chapters(films, fonts, options.encoder, options.segment_only);
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
    const std::vector<Planned*> misses = find_misses(planned, cache, options.use_cache);
    draw_segments(misses, films, cache, fonts, options, on_progress);

    std::vector<RenderReport> reports;
    for (std::size_t i = 0; i < films.size(); ++i) {
        if (interrupted()) throw Interrupted{};
        if (!options.segment_only && !is_mp4(films[i].output)) {
            reports.push_back(render_direct(films[i], fonts, on_progress));
            continue;
        }
        RenderReport report{options.segment_only ? "" : films[i].output, 0, 0, {}};
        std::vector<const Planned*> chapters;
        for (const Planned& p : planned) {
            if (p.film != i) continue;
            chapters.push_back(&p);
            report.chapters.push_back({p.spec->id, p.cached, p.key.frames, p.seconds});
            if (!p.cached) report.frames_drawn += p.key.frames;
        }
        if (!options.segment_only) assemble(films[i], chapters, cache);
        report.wall_seconds = seconds_since(start);
        reports.push_back(std::move(report));
    }
    if (options.use_cache && !planned.empty()) {
        std::set<std::string> keep;
        for (const Planned& p : planned) keep.insert(p.key.key);
        cache.prune(options.cache_limit, keep);
    }
    return reports;
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

void render_still(const story::ChapterSpec& chapter, const story::Video& video, double t,
                  const std::string& output, const Fonts& fonts) {
    ensure_parent_dir(output);
    const auto scene = story::make_chapter(chapter, video, fonts)->scene_at(t);
    auto sink = make_sink(output, fonts);
    sink->begin({output, video.width, video.height, video.fps});
    try {
        sink->write(scene);
        sink->finish();
    } catch (...) {
        sink->abort();
        throw;
    }
}

}  // namespace render
