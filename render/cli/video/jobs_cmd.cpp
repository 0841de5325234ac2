// `shardreel jobs`: the chapter segments not yet in the cache, as one shell command a line (for
// xargs -P or a Kubernetes indexed Job), a Slurm array script or a GNU parallel script, all
// rendering into one shared cache, the latter two followed by the assemble.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>

#include "render/cli/commands.hpp"
#include "render/cli/media_flags.hpp"
#include "render/cli/video/job_scripts.hpp"
#include "render/film/director.hpp"
#include "render/film/plan.hpp"
#include "render/inputs/storyboard_inputs.hpp"
#include "render/sys/error.hpp"
#include "render/sys/files.hpp"

namespace render {

namespace {

struct JobsArgs {
    std::vector<std::string> storyboards;
    std::string only, cache_dir, program, lang, format = "lines";
    SlurmOptions slurm{"", "", "out/slurm"};
    VideoOverrides video;
    bool page = false;  // also the article pages' films (captions as a track)
    bool quiet = false;
};

// This binary, by absolute path ("shardreel" from PATH when the system does not say).
std::string fallback_program() {
    const std::string exe = running_binary();
    return exe.empty() ? "shardreel" : exe;
}

// The video overrides every command repeats so its key matches.
std::string video_flags(const VideoOverrides& video) {
    std::string flags;
    if (!video.quality.empty()) flags += " --quality " + shell_quote(video.quality);
    if (!video.size.empty()) flags += " --size " + shell_quote(video.size);
    if (video.fps != 0) flags += " --fps " + std::to_string(video.fps);
    return flags;
}

// The render that assembles every film from the cache once the segments are drawn, then with
// --page each film's article page (one `page` a storyboard and language: its film's segments are
// in the cache, its figures are drawn there).
std::string assemble_command(const JobsArgs& args, const std::vector<FilmJob>& films,
                             const std::string& program, const std::string& cache_dir) {
    std::string command = program + " render";
    for (const std::string& board : args.storyboards) command += " " + shell_quote(board);
    if (!args.only.empty()) command += " --only " + shell_quote(args.only);
    if (!args.lang.empty()) command += " --lang " + shell_quote(args.lang);
    command += " --cache " + shell_quote(cache_dir) + video_flags(args.video);
    if (!args.page) return command;
    for (const FilmJob& film : films)
        command += " && " + program + " page " + shell_quote(film.board.file) +
                   (args.lang.empty() ? "" : " --lang " + shell_quote(film.board.video.lang)) +
                   " --cache " + shell_quote(cache_dir) + video_flags(args.video);
    return command;
}

std::string describe(const JobsArgs& args, std::size_t count, const std::string& cache_dir) {
    std::string boards;
    for (const std::string& board : args.storyboards)
        boards += (boards.empty() ? "" : ", ") + board;
    return std::to_string(count) + " segment(s) of " + boards + " into the cache " + cache_dir;
}

// films: the films `render` writes, then (with --page) the same films captioned by a track, as
// the pages show them.
JobList job_list(const JobsArgs& args, const std::vector<FilmJob>& films,
                 const std::vector<PendingSegment>& pending, const std::string& cache_dir) {
    const std::string program =
        shell_quote(args.program.empty() ? fallback_program() : args.program);
    const std::string flags =
        " --cache " + shell_quote(cache_dir) + " --segment-only --quiet" + video_flags(args.video);
    const std::size_t rendered = args.page ? films.size() / 2 : films.size();
    JobList jobs;
    for (const PendingSegment& p : pending)
        jobs.segments.push_back(program + " render " + shell_quote(p.storyboard) + " --only " +
                                shell_quote(p.chapter_id) +
                                (args.lang.empty() ? "" : " --lang " + shell_quote(p.lang)) +
                                (p.film < rendered ? "" : " --captions-as track") + flags);
    jobs.assemble = assemble_command(
        args, std::vector<FilmJob>(films.begin(), films.begin() + rendered), program, cache_dir);
    jobs.workdir = std::filesystem::current_path().string();
    jobs.what = describe(args, pending.size(), cache_dir);
    jobs.threads = EncoderSettings{}.threads;
    return jobs;
}

// #SBATCH lines end at white space: a path there cannot hold any.
bool sbatch_safe(const JobList& jobs, const SlurmOptions& slurm) {
    for (const std::string* word : {&jobs.workdir, &slurm.log_dir, &slurm.partition, &slurm.time})
        if (word->find_first_of(" \t\n") != std::string::npos) {
            std::cerr << "shardreel: error: --format slurm cannot write '" << *word
                      << "' into an #SBATCH line (it holds white space)\n";
            return false;
        }
    return true;
}

int run_jobs(const JobsArgs& args) {
    const std::string cache_dir =
        args.cache_dir.empty() ? default_cache_dir("out/film.mp4") : args.cache_dir;
    speech_cache() = cache_dir;
    const auto langs = parse_languages(args.lang, false, std::cerr);
    if (!langs) return 2;
    auto films = load_films(args.storyboards, args.only, args.video, std::cerr, *langs);
    if (!films) return 2;
    if (args.page) {
        VideoOverrides track = args.video;
        track.captions = "track";
        auto pages = load_films(args.storyboards, args.only, track, std::cerr, *langs);
        if (!pages) return 2;
        std::ranges::move(*pages, std::back_inserter(*films));
    }
    const Fonts fonts(default_font_dir());
    const JobList jobs =
        job_list(args, *films, pending_segments(*films, fonts, cache_dir), cache_dir);
    if (jobs.segments.empty()) {
        if (args.quiet) return 0;
        std::cerr << "shardreel: every segment is in the cache " << cache_dir << ": nothing to draw"
                  << (args.format == "slurm" ? " or submit" : "") << "; `" << jobs.assemble
                  << "` assembles the films\n";
        return 0;
    }
    if (args.format == "slurm" && !sbatch_safe(jobs, args.slurm)) return 2;
    if (args.format == "slurm") std::cout << slurm_script(jobs, args.slurm);
    if (args.format == "parallel") std::cout << parallel_script(jobs);
    if (args.format == "lines") std::cout << lines_script(jobs);
    return 0;
}

}  // namespace

void add_jobs_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<JobsArgs>();
    CLI::App* cmd = app.add_subcommand(
        "jobs",
        "Print the `shardreel render ... --segment-only` commands of the segments not yet cached, "
        "as lines, a Slurm array or a GNU parallel script");
    cmd->add_option("storyboards", args->storyboards,
                    "Storyboard YAML files, or directories of them")
        ->required();
    cmd->add_option("--only", args->only, "Only these chapter ids (comma separated)");
    cmd->add_flag("--page", args->page,
                  "Also the segments of each film's article page (captioned by a track), each "
                  "key once, and a `page` per film after the assemble")
        ->excludes("--only");
    // --lang, --size and --quality are passed on to each command.
    add_media_flags(cmd, {.quiet = &args->quiet,
                          .lang = &args->lang,
                          .many_languages = true,
                          .size = &args->video.size,
                          .quality = &args->video.quality,
                          .cache = &args->cache_dir});
    cmd->add_option("--fps", args->video.fps, "Frames per second, passed on to each command");
    cmd->add_option(
        "--program", args->program,
        "Command the workers run shardreel with (default: this binary's absolute path)");
    cmd->add_option("--format", args->format,
                    "lines (one command a line, the default), slurm (a self-submitting sbatch "
                    "array script) or parallel (a GNU parallel script)")
        ->check(CLI::IsMember({"lines", "slurm", "parallel"}));
    cmd->add_option("--partition", args->slurm.partition, "slurm: the partition of both jobs");
    cmd->add_option("--time", args->slurm.time,
                    "slurm: the time limit of each task and the assemble");
    cmd->add_option("--log-dir", args->slurm.log_dir,
                    "slurm: where the tasks' and the assemble's logs go (default out/slurm)");
    cmd->callback([args, &exit_code] { exit_code = run_guarded([&] { return run_jobs(*args); }); });
}

}  // namespace render
