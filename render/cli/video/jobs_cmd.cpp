// `shardreel jobs`: one shell command per chapter segment not yet in the cache, for GNU parallel,
// xargs -P, Slurm arrays or Kubernetes indexed jobs rendering into one shared cache.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>

#include "render/cli/commands.hpp"
#include "render/cli/storyboard_inputs.hpp"
#include "render/film/director.hpp"
#include "render/film/plan.hpp"
#include "render/sys/error.hpp"
#include "render/sys/files.hpp"

namespace render {

namespace {

struct JobsArgs {
    std::vector<std::string> storyboards;
    std::string only, cache_dir, program;
    VideoOverrides video;
};

// This binary, by absolute path ("shardreel" from PATH when the system does not say).
std::string fallback_program() {
    const std::string exe = running_binary();
    return exe.empty() ? "shardreel" : exe;
}

// Single-quoted for sh unless every character is plainly safe.
std::string shell_quote(const std::string& word) {
    if (!word.empty() &&
        word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                               "0123456789_./=:,@+-") == std::string::npos)
        return word;
    std::string out = "'";
    for (const char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// The flags every command repeats so its key matches: the cache and the video overrides.
std::string common_flags(const JobsArgs& args, const std::string& cache_dir) {
    std::string flags = " --cache " + shell_quote(cache_dir) + " --segment-only --quiet";
    if (!args.video.quality.empty()) flags += " --quality " + shell_quote(args.video.quality);
    if (!args.video.size.empty()) flags += " --size " + shell_quote(args.video.size);
    if (args.video.fps != 0) flags += " --fps " + std::to_string(args.video.fps);
    return flags;
}

int run_jobs(const JobsArgs& args) {
    const std::string cache_dir =
        args.cache_dir.empty() ? default_cache_dir("out/film.mp4") : args.cache_dir;
    speech_cache() = cache_dir;
    const auto films = load_films(args.storyboards, args.only, args.video, std::cerr);
    if (!films) return 2;
    const std::string program =
        shell_quote(args.program.empty() ? fallback_program() : args.program);
    const std::string flags = common_flags(args, cache_dir);
    const Fonts fonts(default_font_dir());
    for (const PendingSegment& p : pending_segments(*films, fonts, cache_dir))
        std::cout << program << " render " << shell_quote(p.storyboard) << " --only "
                  << shell_quote(p.chapter_id) << flags << "\n";
    return 0;
}

}  // namespace

void add_jobs_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<JobsArgs>();
    CLI::App* cmd = app.add_subcommand(
        "jobs",
        "Print one `shardreel render ... --segment-only` command per segment not yet cached");
    cmd->add_option("storyboards", args->storyboards,
                    "Storyboard YAML files, or directories of them")
        ->required();
    cmd->add_option("--cache", args->cache_dir,
                    "Shared segment cache directory (default out/cache)");
    cmd->add_option("--only", args->only, "Only these chapter ids (comma separated)");
    cmd->add_option("--quality", args->video.quality,
                    "low, medium, high or 4k, passed on to each command");
    cmd->add_option("--size", args->video.size, "Frame size WxH, passed on to each command");
    cmd->add_option("--fps", args->video.fps, "Frames per second, passed on to each command");
    cmd->add_option(
        "--program", args->program,
        "Command the workers run shardreel with (default: this binary's absolute path)");
    cmd->callback([args, &exit_code] { exit_code = run_guarded([&] { return run_jobs(*args); }); });
}

}  // namespace render
