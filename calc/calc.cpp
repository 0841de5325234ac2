// The page's calculator module (build/shardreel-calc.wasm): the cost model compiled for the
// browser, taking the settings as `numbers` takes its flags and answering with the very JSON
// `shardreel numbers --format json` prints, or its errors. No I/O: the page hands it text and
// reads text back from its memory.
//
//   calc_input(n)   a buffer of n bytes for the input, in the module's memory
//   calc_settings() the address of a NUL-terminated JSON array: every setting of the one
//                   settings table (story/storyboard/settings.hpp) with its flag, section, type,
//                   help and tried values, its keywords or presets, its bounds, "planned" when
//                   plan chooses it; then --params, the shape flags, --global-batch
//                   (render/inputs/config_values.hpp) and numbers' --tokens
//   calc_numbers()  reads the buffer: a JSON object of flags and their text, as typed on the
//                   command line ({"--model": "llama-2-70b", "--tp": "8", "--tokens": "2T"});
//                   returns the address of a NUL-terminated JSON answer: {"report": TEXT} with
//                   TEXT the report as `numbers --format json` prints it (without its final
//                   newline), or {"errors": [...]} with the lines `numbers` prints after
//                   "shardreel: error: "; when a flag's value or the engine refuses the
//                   configuration, "problems" beside them: each line's template and
//                   arguments (engine/problem.hpp, story/storyboard/problems.hpp) as
//                   {"format": ..., "args": {name: text, ...}, "numbers": [the names of the
//                   arguments that are numbers], "parts": {name: an argument's own template,
//                   alike} when one has it (plan's nearest layout)}; a flag's refusal has its
//                   flag as args.flag (its line is "FLAG: " and the filled template unless that
//                   names {flag}).
//   calc_plan(top)  the same for `plan --format json --top TOP`, the flags of what the planner
//                   chooses (--tp, --zero, ...) and --tokens left out of the buffer's.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "engine/problem.hpp"
#include "engine/report.hpp"
#include "render/inputs/config_values.hpp"
#include "render/inputs/numbers_json.hpp"
#include "render/inputs/plan_json.hpp"
#include "story/storyboard/limits.hpp"
#include "story/storyboard/problems.hpp"
#include "story/storyboard/settings.hpp"

namespace {

std::string input, answer;

const char* const kTypes[] = {"model", "gpu", "choice", "whole", "flag", "bandwidth", "ranged"};

// What a setting takes: its keywords or presets, its whole-number bounds or its range.
void add_values(nlohmann::json& s, const story::SettingSpec& spec) {
    namespace limits = story::limits;
    if (spec.type == story::SettingType::model)
        for (const engine::ModelSpec& m : engine::model_presets()) s["choices"].push_back(m.name);
    if (spec.type == story::SettingType::gpu)
        for (const engine::GpuSpec& g : engine::gpu_presets()) s["choices"].push_back(g.name);
    if (const limits::Choice* c = limits::find_choice(spec.name)) s["choices"] = c->listed();
    if (const limits::Bound* b = limits::find_whole_number(spec.name)) s["bounds"] = {b->lo, b->hi};
    if (const limits::Range* r = limits::find_range(spec.name)) s["bounds"] = {r->lo, r->hi};
}

std::string settings() {
    nlohmann::json out = nlohmann::json::array();
    for (const story::SettingSpec& spec : story::settings()) {
        nlohmann::json s = {{"name", spec.name},
                            {"flag", spec.flag},
                            {"section", story::section_name(spec.section)},
                            {"type", kTypes[int(spec.type)]},
                            {"help", spec.help},
                            {"tried", spec.tried}};
        add_values(s, spec);
        if (render::plan_chosen().contains(spec.name)) s["planned"] = true;
        out.push_back(std::move(s));
    }
    for (const render::FlagSpec& f : render::shape_flags()) {
        nlohmann::json s = {{"name", *f.key ? f.key : "params"},
                            {"flag", f.flag},
                            {"section", "model"},
                            {"type", *f.key ? "whole" : "count"},
                            {"help", f.help}};
        if (const auto* c = story::limits::find_choice(f.key)) {  // --arch
            s["type"] = "choice";
            s["choices"] = c->listed();
            out.push_back(std::move(s));
            continue;
        }
        const std::string_view key = std::string_view(f.key) == "expert_ffn" ? "ffn" : f.key;
        if (const auto* b = story::limits::find_whole_number(key)) s["bounds"] = {b->lo, b->hi};
        if (!*f.key) s["bounds"] = {story::limits::kMinParams, story::limits::kMaxParams};
        out.push_back(std::move(s));
    }
    for (const auto& [name, type, f] :
         {std::tuple{"global_batch", "batch", render::kGlobalBatchFlag},
          std::tuple{"tokens", "tokens", render::kTokensFlag}})
        out.push_back({{"name", name},
                       {"flag", f.flag},
                       {"section", "training"},
                       {"type", type},
                       {"help", f.help}});
    return out.dump();
}

nlohmann::json refusal(const std::vector<std::string>& errors) {
    return nlohmann::json{{"errors", errors}};
}

// A problem as the page reads it: its template, its arguments' English, the names of those that
// are numbers, and "parts": the template of each argument that has one (ProblemArg::parts), alike.
nlohmann::json problem_json(const engine::Problem& p) {
    nlohmann::json args = nlohmann::json::object(), numbers = nlohmann::json::array();
    nlohmann::json parts = nlohmann::json::object();
    for (const engine::ProblemArg& a : p.args) {
        args[a.name] = a.text;
        if (a.number) numbers.push_back(a.name);
        for (const engine::Problem& part : a.parts) parts[a.name] = problem_json(part);
    }
    nlohmann::json out = {{"format", p.format}, {"args", args}, {"numbers", numbers}};
    if (!parts.empty()) out["parts"] = std::move(parts);
    return out;
}

// A refusal of the flags' values or of the engine's: its lines in English, and beside them their
// templates and arguments (a flag's names it as "flag").
nlohmann::json refusal(const std::vector<engine::Problem>& problems) {
    nlohmann::json out = refusal(std::vector<std::string>{});
    out["problems"] = nlohmann::json::array();
    for (const engine::Problem& p : problems) {
        out["errors"].push_back(story::problem_line(p));
        out["problems"].push_back(problem_json(p));
    }
    return out;
}

// The flags of the settings named (the planner's choices: --tp for tp).
std::set<std::string> flags_of(const std::set<std::string>& names) {
    std::set<std::string> flags;
    for (const story::SettingSpec& s : story::settings())
        if (names.contains(s.name)) flags.insert(s.flag);
    return flags;
}

// The flags in text (a JSON object of strings) as values, but for those in leave; a problem with
// the input in errors.
render::ConfigValues values_of(const std::string& text, std::vector<std::string>& errors,
                               const std::set<std::string>& leave) {
    render::ConfigValues values;
    const nlohmann::json flags = nlohmann::json::parse(text, nullptr, false);
    if (!flags.is_object()) {
        errors.push_back("the input is not a JSON object");
        return values;
    }
    for (const auto& [flag, value] : flags.items()) {
        if (!value.is_string()) {
            errors.push_back(flag + ": expected text, as on the command line");
            return values;
        }
        if (!leave.contains(flag)) values.given[flag] = value.get<std::string>();
    }
    return values;
}

std::string text_of(const nlohmann::json& flags, const char* flag) {
    return flags.is_object() && flags.contains(flag) && flags[flag].is_string()
               ? flags[flag].get<std::string>()
               : "";
}

// numbers' answer for the flags in text; --tokens adds the run's totals.
std::string numbers(const std::string& text) {
    std::vector<std::string> errors;
    render::ConfigValues values = values_of(text, errors, {"--tokens"});
    if (!errors.empty()) return refusal(errors).dump();
    const std::string tokens = text_of(nlohmann::json::parse(text), "--tokens");
    std::vector<engine::Problem> problems;
    if (!tokens.empty())
        if (auto p = render::tokens_problem(tokens)) problems.push_back(*p);
    engine::Config c = story::default_config();
    for (engine::Problem& p : render::config_problems(values, c)) problems.push_back(std::move(p));
    if (problems.empty()) problems = engine::problems_of(c);
    if (!problems.empty()) return refusal(problems).dump();
    const engine::Report r = engine::analyze(c);
    return nlohmann::json{{"report", render::numbers_json(c, r, tokens).dump(2)}}.dump();
}

// plan's answer for the flags in text, those of what it chooses (the layout) and --tokens left
// out: the top layouts as `plan --format json` prints them.
std::string plan(const std::string& text, int top) {
    std::set<std::string> leave = flags_of(render::plan_chosen());
    leave.insert("--tokens");
    std::vector<std::string> errors;
    render::ConfigValues values = values_of(text, errors, leave);
    if (!errors.empty()) return refusal(errors).dump();
    values.chosen = render::plan_chosen();
    const render::PlanRequest request = render::plan_request(values, top);
    if (!request.problems.empty()) return refusal(request.problems).dump();
    const engine::PlanResult r = engine::plan(request.base, request.options);
    if (r.best.empty()) return refusal({render::plan_shortfall(request.base, r)}).dump();
    return nlohmann::json{{"report", render::plan_json(r).dump(2)}}.dump();
}

}  // namespace

extern "C" {

__attribute__((export_name("calc_input"))) char* calc_input(std::size_t n) {
    input.assign(n, '\0');
    return input.data();
}

__attribute__((export_name("calc_settings"))) const char* calc_settings() {
    answer = settings();
    return answer.c_str();
}

__attribute__((export_name("calc_numbers"))) const char* calc_numbers() {
    answer = numbers(input);
    return answer.c_str();
}

__attribute__((export_name("calc_plan"))) const char* calc_plan(int top) {
    answer = plan(input, top);
    return answer.c_str();
}
}
