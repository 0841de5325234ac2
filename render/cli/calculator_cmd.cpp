// `shardreel calculator [-o DIR]`: writes the calculator page (render/calc_page), DIR/index.html,
// a standalone page with the module beside the binary (build/shardreel-calc.wasm) inside it.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "render/calc_page/calc_page.hpp"
#include "render/cli/commands.hpp"
#include "render/sys/files.hpp"

namespace render {
namespace {

int write_calculator(const std::string& dir) {
    const std::string page = dir + "/index.html";
    if (!write_calculator_page(page)) return 1;
    std::cout << page << "\n";
    return 0;
}

}  // namespace

bool write_calculator_page(const std::string& path) {
    const std::string module = beside_binary("shardreel-calc.wasm");
    std::string error;
    const std::optional<std::string> wasm = read_file(module, error);
    if (!wasm) {
        std::cerr << "shardreel: error: cannot read the calculator module " << module << ": "
                  << error << " (built with -DSHARDREEL_CALC=ON)\n";
        return false;
    }
    ensure_parent_dir(path);
    write_file_atomic(path, calculator_page(*wasm));
    return true;
}

void add_calculator_command(CLI::App& app, int& exit_code) {
    CLI::App* cmd = app.add_subcommand(
        "calculator", "Write the calculator page: the cost model in the browser, offline");
    auto dir = std::make_shared<std::string>("out/calculator");
    cmd->add_option("-o,--output", *dir, "Output directory (default out/calculator)");
    cmd->callback(
        [&exit_code, dir] { exit_code = run_guarded([&] { return write_calculator(*dir); }); });
}

}  // namespace render
