// `shardreel page`: a storyboard as an explorable article page (render/page/page.hpp).
#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "render/cli/commands.hpp"
#include "render/cli/media_flags.hpp"
#include "render/inputs/storyboard_inputs.hpp"
#include "render/inputs/video/film_sound.hpp"
#include "render/page/page.hpp"
#include "render/sys/cancel.hpp"
#include "render/sys/error.hpp"
#include "render/sys/files.hpp"

namespace render {
namespace {

namespace fs = std::filesystem;

struct PageArgs {
    std::string storyboard, output;
    MediaArgs media;
    bool no_audio = false, no_calculator = false;
};

int run_page(const PageArgs& args) {
    const auto langs = parse_languages(args.media.lang, true, std::cerr);
    if (!langs) return 2;
    const std::string dir =
        args.output.empty()
            ? output_stem(args.storyboard, *langs, single_language(*langs)) + "-page"
            : args.output;
    BatchOptions batch;
    // The cache beside the page's directory (out/cache for out/<stem>-page), never inside it.
    batch.cache_dir = args.media.cache.empty()
                          ? (fs::path(dir).lexically_normal().parent_path() / "cache").string()
                          : args.media.cache;
    speech_cache() = batch.cache_dir;
    install_interrupt_handlers();  // a signal stops the speech too: exit 130
    VideoOverrides video = args.media.video;
    video.captions = "track";  // the page's <track>, switchable
    auto films = load_films({args.storyboard}, "", video, std::cerr, *langs);
    if (!films) return 2;
    FilmJob& film = films->front();
    film.output = (fs::path(dir) / "film.mp4").string();
    if (!args.no_audio && !add_sound(film, std::cerr)) return 2;

    // The calculator first: without its module nothing is written.
    const std::string calculator = args.no_calculator ? "" : "calculator.html";
    if (!calculator.empty() &&
        !write_calculator_page((fs::path(dir) / calculator).string(), film.video.lang))
        return 1;
    ensure_parent_dir(film.output);
    const Fonts fonts(default_font_dir());
    const PageReport r = write_page(film, fonts, batch, process_token(), calculator);
    std::ostringstream summary;
    summary << "shardreel: wrote " << r.page << " (" << r.figures << " figures, " << r.figures_drawn
            << " drawn; " << r.page_bytes / 1024 << " KiB besides " << r.film.output << ", "
            << r.film.frames_drawn << " frames drawn)";
    print_report({{"output", r.page},
                  {"page", r.page},
                  {"figures", r.figures},
                  {"figures_drawn", r.figures_drawn},
                  {"page_bytes", r.page_bytes},
                  {"film", r.film.output},
                  {"film_frames_drawn", r.film.frames_drawn}},
                 summary.str(), args.media.json, args.media.quiet);
    return 0;
}

}  // namespace

void add_page_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<PageArgs>();
    CLI::App* cmd = app.add_subcommand(
        "page",
        "Write an explorable article page: the film, every chapter's figure, numbers, "
        "formulas and explore: variants");
    cmd->add_option("storyboard", args->storyboard, "Storyboard YAML file")->required();
    cmd->add_option("-o,--output", args->output, "Output directory (default out/<stem>-page)");
    add_media_flags(cmd, args->media);
    cmd->add_option("--fps", args->media.video.fps, "Frames per second of the film");
    cmd->add_flag("--no-audio", args->no_audio, "A silent film");
    cmd->add_flag("--no-calculator", args->no_calculator,
                  "Leave the calculator (calculator.html, framed at the end) out of the page");
    cmd->callback([args, &exit_code] { exit_code = run_guarded([&] { return run_page(*args); }); });
}

}  // namespace render
