// `shardreel studio`: the live preview server (render/studio/server.hpp).
#include <CLI/CLI.hpp>
#include <iostream>

#include "render/cli/commands.hpp"
#include "render/cli/media_flags.hpp"
#include "render/inputs/storyboard_inputs.hpp"
#include "render/studio/server.hpp"

namespace render {

void add_studio_command(CLI::App& app, int& exit_code) {
    auto options = std::make_shared<StudioOptions>();
    CLI::App* cmd =
        app.add_subcommand("studio",
                           "Live preview in the browser: scrub, play, hot reload on save (default: "
                           "storyboards/distributed-training.yaml)");
    cmd->add_option("storyboard", options->storyboard, "Storyboard YAML file");
    cmd->add_option("--port", options->port, "TCP port (default 8640; 0: any free port)")
        ->check(CLI::Range(0, 65535));
    cmd->add_option("--host", options->host,
                    "Address to listen on (default 127.0.0.1; another prints a warning)");
    cmd->add_option("--allow-host", options->allowed_hosts,
                    "Also answer requests whose Host is this name (repeatable; by default only "
                    "the studio's own address: 127.0.0.1, localhost, [::1] or --host)");
    // The preview is fitted into 960x540 unless --size is given.
    auto lang = std::make_shared<std::string>();
    add_media_flags(cmd, {.lang = lang.get(), .size = &options->size, .cache = &options->cache});
    cmd->callback([options, lang, &exit_code] {
        if (options->storyboard.empty())
            options->storyboard = "storyboards/distributed-training.yaml";
        if (!lang->empty()) {
            const auto langs = parse_languages(*lang, /*single=*/true, std::cerr);
            if (!langs) {
                exit_code = 2;
                return;
            }
            options->lang = single_language(*langs);
        }
        exit_code = run_guarded([&] { return run_studio(*options, std::cout, std::cerr); });
    });
}

}  // namespace render
