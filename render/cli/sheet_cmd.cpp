// `shardreel sheet`: a contact sheet of a storyboard, every chapter at its beats, as one PNG grid
// or an HTML page with PNG stills and captions, so a reviewer sees the whole film at a glance.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "render/cli/commands.hpp"
#include "render/cli/media_flags.hpp"
#include "render/inputs/storyboard_inputs.hpp"
#include "render/sheet/contact_sheet.hpp"
#include "render/sys/cancel.hpp"
#include "render/sys/error.hpp"
#include "render/sys/files.hpp"
#include "story/storyboard/units.hpp"

namespace render {
namespace {

constexpr const char* html_still_size = "960x540";  // crisp at 480 px on high-density screens

struct SheetArgs {
    std::string storyboard, output, every;
    MediaArgs media;
};

int usage_error(const std::string& message) {
    std::cerr << "shardreel: error: " << message << "\n";
    return 2;
}

int run_sheet(const SheetArgs& args) {
    const auto langs = parse_languages(args.media.lang, true, std::cerr);
    if (!langs) return 2;
    if (!args.media.cache.empty()) speech_cache() = args.media.cache;
    const auto board = load_storyboard(args.storyboard, std::cerr, single_language(*langs));
    if (!board) return 2;
    const std::string output =
        args.output.empty() ? output_stem(board->file, *langs, board->video.lang) + "-sheet.png"
                            : args.output;
    const std::string ext = std::filesystem::path(output).extension().string();
    if (ext != ".png" && ext != ".html")
        return usage_error("sheet output must end in .png or .html, got '" + output + "'");
    VideoOverrides overrides = args.media.video;
    if (overrides.size.empty() && overrides.quality.empty() && ext == ".html")
        overrides.size = html_still_size;
    story::Video video;
    if (auto err = resolve_video(board->video, overrides, video)) return usage_error(*err);
    double every = 0;
    if (!args.every.empty()) {
        const auto seconds = story::parse_time(args.every, video.fps);
        if (!seconds || *seconds <= 0)
            return usage_error("--every expects a positive time such as 2s or 500ms, got '" +
                               args.every + "'");
        every = *seconds;
    }
    const auto shots = pick_shots(*board, video.fps, every);
    install_interrupt_handlers();
    ensure_parent_dir(output);
    const Fonts fonts(default_font_dir());
    if (ext == ".html")
        write_sheet_html(*board, video, shots, output, fonts, process_token());
    else
        write_sheet_png(*board, video, shots, output, fonts, process_token());
    print_report({{"output", output}, {"stills", shots.size()}},
                 "shardreel: wrote " + output + " (" + std::to_string(shots.size()) + " stills)",
                 args.media.json, args.media.quiet);
    return 0;
}

}  // namespace

void add_sheet_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<SheetArgs>();
    CLI::App* cmd =
        app.add_subcommand("sheet", "Contact sheet of every chapter at its beats, as PNG or HTML");
    cmd->add_option("storyboard", args->storyboard, "Storyboard YAML file")->required();
    cmd->add_option("-o,--output", args->output,
                    "Output .png grid or .html page (default out/<stem>-sheet.png)");
    cmd->add_option("--every", args->every,
                    "A still every TIME (2s, 500ms, 45f) instead of at the beats");
    // The HTML page's stills are 960x540 unless --size or --quality is given.
    add_media_flags(cmd, args->media);

    cmd->callback(
        [args, &exit_code] { exit_code = run_guarded([&] { return run_sheet(*args); }); });
}

}  // namespace render
