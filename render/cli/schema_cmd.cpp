// `shardreel schema`: prints the storyboard JSON Schema this build checks against, the text of
// storyboards/schema.json (regenerate it with `shardreel schema > storyboards/schema.json`).
#include <CLI/CLI.hpp>
#include <iostream>

#include "render/cli/commands.hpp"
#include "story/load/schema.hpp"

namespace render {

void add_schema_command(CLI::App& app, int& exit_code) {
    CLI::App* cmd = app.add_subcommand(
        "schema", "Print the storyboard JSON Schema (draft-07) for editors and validators");
    cmd->callback([&exit_code] {
        std::cout << story::storyboard_schema();
        exit_code = std::cout.flush() ? 0 : 1;
    });
}

}  // namespace render
