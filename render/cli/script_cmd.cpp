// `shardreel script`: the narration script of a storyboard for a recording session, every
// spoken line with its chapter, timecode, text and the take file a recorded narration expects.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>

#include "render/cli/commands.hpp"
#include "render/inputs/storyboard_inputs.hpp"
#include "render/sys/files.hpp"
#include "story/uses/script.hpp"

namespace render {
namespace {

struct ScriptArgs {
    std::string storyboard, output, lang;
};

int run_script(const ScriptArgs& args) {
    const std::string ext = std::filesystem::path(args.output).extension().string();
    if (!args.output.empty() && ext != ".md" && ext != ".csv") {
        std::cerr << "shardreel: error: script output must end in .md or .csv, got '" << args.output
                  << "'\n";
        return 2;
    }
    const auto langs = parse_languages(args.lang, true, std::cerr);
    if (!langs) return 2;
    const auto board = load_storyboard(args.storyboard, std::cerr, single_language(*langs));
    if (!board) return 2;
    const story::FilmTime time(board->chapters, board->video.fps);
    const auto lines = story::script_lines(*board, time);
    const std::string text =
        ext == ".csv" ? story::script_csv(*board, lines) : story::script_markdown(*board, lines);
    if (args.output.empty()) {
        std::cout << text;
        return std::cout.flush() ? 0 : 1;
    }
    ensure_parent_dir(args.output);
    write_file_atomic(args.output, text);
    std::cerr << "shardreel: wrote " << args.output << " (" << lines.size() << " lines)\n";
    return 0;
}

}  // namespace

void add_script_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<ScriptArgs>();
    CLI::App* cmd = app.add_subcommand(
        "script", "Print the narration script (every line, its timecode and take file name)");
    cmd->add_option("storyboard", args->storyboard, "Storyboard YAML file")->required();
    cmd->add_option("-o,--output", args->output,
                    "Write to FILE.md (Markdown tables) or FILE.csv instead of stdout");
    cmd->add_option("--lang", args->lang,
                    "Language of the text (one the storyboard lists; default: its own)");

    cmd->callback(
        [args, &exit_code] { exit_code = run_guarded([&] { return run_script(*args); }); });
}

}  // namespace render
