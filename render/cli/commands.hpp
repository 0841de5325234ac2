// Each subcommand registers itself on the CLI; its callback stores the process exit code
// (0 ok, 1 runtime failure, 2 bad usage or invalid storyboard, 130 interrupted).
#pragma once
#include <functional>
#include <string>

namespace CLI {
class App;
}

namespace render {

void add_render_command(CLI::App& app, int& exit_code);
void add_still_command(CLI::App& app, int& exit_code);
void add_check_command(CLI::App& app, int& exit_code);
void add_numbers_command(CLI::App& app, int& exit_code);
// `plan`: layouts ranked by the cost model's step time (engine/plan.hpp).
void add_plan_command(CLI::App& app, int& exit_code);
// Where a predicted step time's constants come from, as `numbers` and `plan` say it (README,
// "Against measured training runs").
inline constexpr const char* kPredictedStepSource = "set on nanotron's H100 runs";
void add_jobs_command(CLI::App& app, int& exit_code);
// `page`: the explorable article page (render/page).
void add_page_command(CLI::App& app, int& exit_code);
void add_studio_command(CLI::App& app, int& exit_code);
void add_sheet_command(CLI::App& app, int& exit_code);
void add_schema_command(CLI::App& app, int& exit_code);
void add_script_command(CLI::App& app, int& exit_code);
void add_voices_command(CLI::App& app, int& exit_code);
// `calculator`: the standalone calculator page (render/calc_page).
void add_calculator_command(CLI::App& app, int& exit_code);
// Writes the calculator page to path with the module beside the binary (shardreel-calc.wasm),
// in lang (its words and numbers); false, with the reason on stderr, when the module cannot be
// read.
bool write_calculator_page(const std::string& path, const std::string& lang);

// Runs a command body: SystemError becomes exit 1 with its message, Interrupted by a signal exit
// 130 (by anything else, 1).
int run_guarded(const std::function<int()>& run);

}  // namespace render
