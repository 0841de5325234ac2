// `shardreel still`: one frame of one chapter as PNG, SVG or PDF, for articles.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "render/cli/commands.hpp"
#include "render/cli/media_flags.hpp"
#include "render/inputs/storyboard_inputs.hpp"
#include "render/sinks/still.hpp"
#include "render/sys/error.hpp"
#include "story/time/film_time.hpp"
#include "story/time/moment.hpp"

namespace render {

namespace {

struct StillArgs {
    std::string storyboard, at, output;
    MediaArgs media;
};

std::string default_output(const std::string& stem, const std::string& at) {
    std::string name = at;
    for (char& c : name)
        if (c == '@' || c == '.') c = '-';
    return stem + "-" + name + ".png";
}

int run_still(const StillArgs& args) {
    const auto langs = parse_languages(args.media.lang, true, std::cerr);
    if (!langs) return 2;
    if (!args.media.cache.empty()) speech_cache() = args.media.cache;
    auto board = load_storyboard(args.storyboard, std::cerr, single_language(*langs));
    if (!board) return 2;
    story::Video video;
    if (auto err = resolve_video(board->video, args.media.video, video)) {
        std::cerr << "shardreel: error: " << *err << "\n";
        return 2;
    }
    story::Moment at;
    if (auto err =
            story::resolve_at(*board, story::FilmTime(board->chapters, video.fps), args.at, at)) {
        std::cerr << "shardreel: error: " << *err << "\n";
        return 2;
    }
    const std::string output =
        args.output.empty()
            ? default_output(output_stem(board->file, *langs, board->video.lang), args.at)
            : args.output;
    const std::string ext = std::filesystem::path(output).extension().string();
    if (ext != ".png" && ext != ".svg" && ext != ".pdf") {
        std::cerr << "shardreel: error: still output must end in .png, .svg or .pdf, got '"
                  << output << "'\n";
        return 2;
    }
    render_still(board->chapters[at.chapter], video, at.t, output, Fonts(default_font_dir()));
    print_report({{"output", output},
                  {"chapter", board->chapters[at.chapter].id},
                  {"frame", at.frame},
                  {"width", video.width},
                  {"height", video.height}},
                 "shardreel: wrote " + output, args.media.json, args.media.quiet);
    return 0;
}

}  // namespace

void add_still_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<StillArgs>();
    CLI::App* cmd = app.add_subcommand("still", "Render one frame of a chapter to PNG, SVG or PDF");
    cmd->add_option("storyboard", args->storyboard, "Storyboard YAML file")->required();
    cmd->add_option("--at", args->at, "ID@TIME: chapter id and time (3.5s, 500ms, 90f, end)")
        ->required();
    cmd->add_option("-o,--output", args->output,
                    "Output .png, .svg or .pdf (default out/<stem>-<id>-<time>.png)");
    add_media_flags(cmd, args->media);

    cmd->callback(
        [args, &exit_code] { exit_code = run_guarded([&] { return run_still(*args); }); });
}

}  // namespace render
