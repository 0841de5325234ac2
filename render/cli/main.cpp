// shardreel's entry point: parses the command line and maps outcomes to exit codes.
#include <malloc.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "render/cli/commands.hpp"
#include "render/cli/video_module.hpp"
#include "render/sys/error.hpp"

namespace {

// "--flag=" splits into "--flag" and an empty value: CLI11 reads "--flag=" as the flag alone and
// took the next argument for its value ("--tp= --gpus=64" was tp '--gpus=64'), where the
// WebAssembly calculator and a shell's "--tp ''" give the flag its empty value to refuse.
std::vector<std::string> split_empty_values(int argc, char** argv) {
    std::vector<std::string> args;
    for (int i = 0; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool empty = i > 0 && arg.starts_with("--") && arg.size() > 3 && arg.back() == '=';
        args.push_back(empty ? arg.substr(0, arg.size() - 1) : arg);
        if (empty) args.emplace_back();
    }
    return args;
}

}  // namespace

int main(int argc, char** argv) {
    // Blocks of 1 MB and more (x264's frame pool, Cairo's group surfaces) are mapped and given back
    // when freed. glibc's default raises this threshold after the first such free, so each
    // chapter's encoder then came from a fragmented heap and peak memory grew with the number of
    // chapters: 287 MB for one at 1080p, 354 MB for eight (docs/performance.md).
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
    std::vector<std::string> args = split_empty_values(argc, argv);
    std::vector<char*> pointers;
    for (std::string& a : args) pointers.push_back(a.data());
    argc = int(pointers.size());
    argv = pointers.data();
    CLI::App app{"shardreel: animated explainers of distributed training, from a YAML storyboard"};
    app.set_version_flag("--version", std::string("shardreel ") + SHARDREEL_VERSION);
    app.require_subcommand(1);
    int exit_code = 0;
    try {
        // render loads the video module when it has a film to make; jobs, page and studio come
        // from it, loaded only when they may run.
        render::add_render_command(app, exit_code);
        if (render::wants_video_commands(argc, argv)) render::add_video_commands(app, exit_code);
        render::add_still_command(app, exit_code);
        render::add_check_command(app, exit_code);
        render::add_numbers_command(app, exit_code);
        render::add_plan_command(app, exit_code);
        render::add_sheet_command(app, exit_code);
        render::add_schema_command(app, exit_code);
        render::add_script_command(app, exit_code);
        render::add_voices_command(app, exit_code);
        render::add_calculator_command(app, exit_code);
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return 2;
    } catch (const render::SystemError& e) {
        std::cerr << "shardreel: error: " << e.what() << "\n";
        return 1;
    }
    return exit_code;
}
