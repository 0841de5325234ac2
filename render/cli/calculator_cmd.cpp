// `shardreel calculator [-o DIR]`: writes the calculator page (render/calc_page), DIR/index.html,
// a standalone page with the module beside the binary (build/shardreel-calc.wasm) inside it, in
// the language --lang names (its words from the message catalogue, its numbers as ICU writes
// them in that language).
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "render/calc_page/calc_page.hpp"
#include "render/cli/commands.hpp"
#include "render/cli/media_flags.hpp"
#include "render/inputs/storyboard_inputs.hpp"
#include "render/sys/files.hpp"

namespace render {
namespace {

struct CalculatorArgs {
    std::string dir = "out/calculator", lang = "en";
};

int write_calculator(const CalculatorArgs& args) {
    // Any language tag (no storyboard lists them here), refused as every command refuses one.
    const auto langs = parse_languages(args.lang, true, std::cerr);
    if (!langs) return 2;
    const std::string page = args.dir + "/index.html";
    if (!write_calculator_page(page, single_language(*langs))) return 1;
    std::cout << page << "\n";
    return 0;
}

}  // namespace

bool write_calculator_page(const std::string& path, const std::string& lang) {
    const std::string module = beside_binary("shardreel-calc.wasm");
    std::string error;
    const std::optional<std::string> wasm = read_file(module, error);
    if (!wasm) {
        std::cerr << "shardreel: error: cannot read the calculator module " << module << ": "
                  << error << " (built with -DSHARDREEL_CALC=ON)\n";
        return false;
    }
    ensure_parent_dir(path);
    write_file_atomic(path, calculator_page(*wasm, lang));
    return true;
}

void add_calculator_command(CLI::App& app, int& exit_code) {
    CLI::App* cmd = app.add_subcommand(
        "calculator", "Write the calculator page: the cost model in the browser, offline");
    auto args = std::make_shared<CalculatorArgs>();
    cmd->add_option("-o,--output", args->dir, "Output directory (default out/calculator)");
    add_media_flags(cmd, MediaFlags{.lang = &args->lang});
    cmd->callback(
        [&exit_code, args] { exit_code = run_guarded([&] { return write_calculator(*args); }); });
}

}  // namespace render
