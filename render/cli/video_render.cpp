// `shardreel render`: storyboards (or directories of them) to MP4 films with captions and sound
// through the segment cache, -j workers, progress on a TTY, JSON report; or their sound alone.
// The command is the core's: it loads the storyboards and, when every film's record finds it as
// it was left (render/film/film_record.hpp), reports them without loading the video module,
// which makes films.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

#include "render/cli/commands.hpp"
#include "render/cli/media_flags.hpp"
#include "render/cli/video_module.hpp"
#include "render/film/cache_prune.hpp"
#include "render/film/director.hpp"
#include "render/film/film_record.hpp"
#include "render/inputs/storyboard_inputs.hpp"
#include "render/sinks/sink.hpp"
#include "render/sys/cancel.hpp"
#include "render/sys/error.hpp"
#include "story/storyboard/diagnostics.hpp"
#include "story/storyboard/units.hpp"

namespace render {

namespace {

struct RenderArgs {
    std::vector<std::string> storyboards;
    std::string output, only, cache_limit, lang, captions = "own";
    VideoOverrides video;
    BatchOptions batch;
    bool no_cache = false, json = false, quiet = false, no_audio = false;
};

void print_progress(const Progress& p, std::chrono::steady_clock::time_point start) {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double fps = elapsed > 0 ? static_cast<double>(p.done) / elapsed : 0;
    const double eta = fps > 0 ? static_cast<double>(p.total - p.done) / fps : 0;
    const int width = 30, filled = static_cast<int>(width * p.done / std::max(1LL, p.total));
    std::fprintf(stderr, "\r\033[K%-22.22s [%s%s] %lld/%lld frames  %.1f fps  ETA %.0fs",
                 p.chapter.c_str(), std::string(filled, '#').c_str(),
                 std::string(width - filled, '.').c_str(), p.done, p.total, fps, eta);
    if (p.done == p.total) std::fputc('\n', stderr);
}

// Silence measures -inf, which JSON cannot hold: null.
nlohmann::json finite(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); }

nlohmann::json to_json(const RenderReport& r) {
    nlohmann::json chapters = nlohmann::json::array();
    for (const auto& c : r.chapters) {
        chapters.push_back(
            {{"id", c.id}, {"cached", c.cached}, {"frames", c.frames}, {"seconds", c.seconds}});
        if (c.sound_cached) chapters.back()["audio_cached"] = *c.sound_cached;
    }
    const nlohmann::json output = r.output.empty() ? nlohmann::json() : nlohmann::json(r.output);
    nlohmann::json out = {{"output", output},
                          {"frames_drawn", r.frames_drawn},
                          {"wall_seconds", r.wall_seconds},
                          {"chapters", chapters}};
    if (r.sound)
        out["audio"] = {{"lufs", finite(r.sound->lufs)},
                        {"true_peak_db", finite(r.sound->true_peak_db)},
                        {"seconds", r.sound->seconds},
                        {"sample_rate", r.sound->sample_rate}};
    return out;
}

// Loads, selects and resolves every storyboard and names its output; false (diagnostics
// printed) if any is bad. With --no-cache the lines are spoken into `scratch`, a temporary
// speech cache that lasts as long as the render.
bool prepare_films(const RenderArgs& args, std::vector<FilmJob>& films,
                   std::optional<TempDir>& scratch) {
    speech_cache() = args.batch.cache_dir.empty()
                         ? default_cache_dir(args.output.empty() ? "out/film.mp4" : args.output)
                         : args.batch.cache_dir;
    if (args.no_cache) use_scratch_speech_cache(scratch);
    const auto langs = parse_languages(args.lang, false, std::cerr);
    if (!langs) return false;
    // With --captions all, every film carries a caption track of each language its storyboard
    // lists.
    auto loaded = load_films(args.storyboards, args.only, args.video, std::cerr, *langs,
                             args.captions == "all");
    if (!loaded) return false;
    if (!args.output.empty() && loaded->size() > 1) {
        std::cerr << "shardreel: error: -o names one output but " << loaded->size()
                  << " films were given (drop -o to write out/<name>.mp4, or "
                     "out/<name>.<lang>.mp4, for each)\n";
        return false;
    }
    const char* ext = args.batch.sound_only ? ".m4a" : ".mp4";
    for (FilmJob& film : *loaded)
        film.output = args.output.empty()
                          ? output_stem(film.board.file, *langs, film.board.video.lang) + ext
                          : args.output;
    films = std::move(*loaded);
    return true;
}

bool resolve_batch(RenderArgs& args) {
    args.batch.use_cache = !args.no_cache;
    args.batch.measure_sound = args.json;
    if (args.no_cache && args.batch.segment_only) {
        std::cerr << "shardreel: error: --segment-only writes into the cache; it cannot go with "
                     "--no-cache\n";
        return false;
    }
    if (args.cache_limit.empty()) return true;
    const auto limit = story::parse_size(args.cache_limit);
    if (!limit) {
        std::cerr << "shardreel: error: cannot parse cache limit '" << args.cache_limit
                  << "' (expected a size such as 2GB or 500MB)\n";
        return false;
    }
    args.batch.cache_limit = static_cast<std::uintmax_t>(*limit);
    return true;
}

void print_summary(const RenderReport& r) {
    std::size_t cached = 0;
    for (const auto& c : r.chapters) cached += c.cached;
    std::cerr << "shardreel: " << (r.output.empty() ? "segments ready" : "wrote " + r.output)
              << " (" << r.frames_drawn << " frames drawn, " << cached << " of "
              << r.chapters.size() << " chapters cached, "
              << static_cast<int>(r.wall_seconds * 10) / 10.0 << " s)\n";
}

// The reports of films whose records find every one as it was left, with the cache pruned as a
// render prunes it; nullopt when some film must be made, or its sound measured (--json), by
// the video module.
std::optional<std::vector<RenderReport>> kept_films(const RenderArgs& args,
                                                    const std::vector<FilmJob>& films,
                                                    const Fonts& fonts) {
    if (films.empty()) return std::nullopt;
    const std::string dir = args.batch.cache_dir.empty() ? default_cache_dir(films.front().output)
                                                         : args.batch.cache_dir;
    const std::vector<FilmState> states =
        film_states(films, fonts, args.batch, dir, std::vector<bool>(films.size(), args.no_audio));
    std::vector<RenderReport> reports;
    std::set<std::string> used;
    for (const FilmState& s : states) {
        if (!s.kept || (args.batch.measure_sound && s.key->sound)) return std::nullopt;
        reports.push_back(s.kept->report);
        used.insert(s.kept->segments.begin(), s.kept->segments.end());
    }
    prune_after_render(dir, args.batch, films, std::move(used));
    return reports;
}

int run_render(RenderArgs& args) {
    if (args.storyboards.empty())
        args.storyboards.push_back("storyboards/distributed-training.yaml");
    // Validate everything before writing anything. A signal stops the speech as it stops the
    // drawing: exit 130, what was spoken kept in the speech cache.
    install_interrupt_handlers();
    std::vector<FilmJob> films;
    std::optional<TempDir> speech_scratch;
    if (!prepare_films(args, films, speech_scratch) || !resolve_batch(args)) return 2;
    const Fonts fonts(default_font_dir());
    const bool show_progress = !args.quiet && !args.json && isatty(STDERR_FILENO);
    const auto start = std::chrono::steady_clock::now();
    auto on_progress = [&](const Progress& p) {
        if (show_progress) print_progress(p, start);
    };
    std::vector<RenderReport> reports;
    if (auto kept = kept_films(args, films, fonts)) {
        reports = std::move(*kept);
        const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
        for (RenderReport& r : reports) r.wall_seconds = took.count();
    } else {
        RenderCall call{films, fonts, args.batch, args.no_audio, on_progress, {}};
        try {
            if (const int code = render_in_module(call)) return code;
        } catch (...) {
            if (show_progress) std::fputs("\r\033[K", stderr);  // the error gets a line of its own
            throw;
        }
        reports = std::move(call.reports);
    }
    nlohmann::json out = nlohmann::json::array();
    for (const RenderReport& r : reports) {
        out.push_back(to_json(r));
        if (!args.quiet && !args.json) print_summary(r);
    }
    if (args.json) std::cout << (out.size() == 1 ? out[0] : out).dump() << "\n";
    return 0;
}

}  // namespace

void add_render_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<RenderArgs>();
    // Each chapter's encoder already keeps batch.encoder.threads cores busy (plus the drawing
    // thread beside it), so more chapters than cores / threads only add memory
    // (docs/performance.md).
    args->batch.jobs =
        static_cast<int>(std::max(1u, std::thread::hardware_concurrency() /
                                          static_cast<unsigned>(args->batch.encoder.threads)));
    CLI::App* cmd = app.add_subcommand(
        "render", "Render storyboards to MP4 (default: storyboards/distributed-training.yaml)");
    cmd->add_option("storyboards", args->storyboards,
                    "Storyboard YAML files, or directories of them");
    cmd->add_option("-o,--output", args->output, "Output file (default out/<storyboard-stem>.mp4)");
    cmd->add_option("--fps", args->video.fps, "Frames per second, overrides the preset");
    cmd->add_option("--only", args->only, "Render only these chapter ids (comma separated)");
    cmd->add_option("--captions", args->captions,
                    "own: a caption track in the film's language (default); all: one per language "
                    "the storyboard lists, the film's first")
        ->check(CLI::IsMember({"own", "all"}));
    cmd->add_option("--captions-as", args->video.captions,
                    "burn, track or off, overriding the storyboard's video: captions (track: the "
                    "segments of `page`'s film)")
        ->check(CLI::IsMember({"burn", "track", "off"}));
    cmd->add_option("-j,--jobs", args->batch.jobs,
                    "Chapters drawn in parallel (default: CPU count / 2, the encoder's threads); "
                    "output is identical for any N")
        ->check(CLI::Range(1, 256));
    add_media_flags(cmd, {.quiet = &args->quiet,
                          .json = &args->json,
                          .lang = &args->lang,
                          .many_languages = true,
                          .size = &args->video.size,
                          .quality = &args->video.quality,
                          .cache = &args->batch.cache_dir});
    cmd->add_flag("--no-cache", args->no_cache,
                  "Draw every chapter; neither read nor write the cache")
        ->excludes("--cache");
    cmd->add_flag(
        "--segment-only", args->batch.segment_only,
        "Draw the selected chapters' missing segments into the cache; do not assemble the film");
    cmd->add_option("--cache-limit", args->cache_limit,
                    "Prune the cache to this size, least recently used first (default 2GB)");
    auto* no_audio = cmd->add_flag("--no-audio", args->no_audio,
                                   "A silent film: no narration, music or sound cues");
    cmd->add_flag("--audio-only", args->batch.sound_only,
                  "Write the mixed sound alone to -o FILE.wav or FILE.m4a (default "
                  "out/<storyboard-stem>.m4a)")
        ->excludes(no_audio)
        ->excludes("--segment-only");
    cmd->callback(
        [args, &exit_code] { exit_code = run_guarded([&] { return run_render(*args); }); });
}

}  // namespace render
