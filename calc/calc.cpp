// The page's calculator module (build/shardreel-calc.wasm): the cost model compiled for the
// browser, taking the settings as `numbers` takes its flags and answering with the very JSON
// `shardreel numbers --format json` prints, or its errors. No I/O: the page hands it text and
// reads text back from its memory.
//
//   calc_input(n)   a buffer of n bytes for the input, in the module's memory
//   calc_settings() the address of a NUL-terminated JSON array: every setting of the one
//                   settings table (story/storyboard/settings.hpp) with its flag, section, type,
//                   help and tried values, its keywords or presets, its bounds; then --params,
//                   the shape flags and --global-batch (render/inputs/config_values.hpp)
//   calc_numbers()  reads the buffer: a JSON object of flags and their text, as typed on the
//                   command line ({"--model": "llama-2-70b", "--tp": "8"}); returns the address
//                   of a NUL-terminated JSON answer: {"report": TEXT} with TEXT the report as
//                   `numbers --format json` prints it (without its final newline), or
//                   {"errors": [...]} with the lines `numbers` prints after "shardreel: error: ".
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/report.hpp"
#include "render/inputs/config_values.hpp"
#include "render/inputs/numbers_json.hpp"
#include "story/storyboard/limits.hpp"
#include "story/storyboard/settings.hpp"

namespace {

std::string input, answer;

const char* const kSections[] = {"model", "training", "cluster", "parallel"};
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
                            {"section", kSections[int(spec.section)]},
                            {"type", kTypes[int(spec.type)]},
                            {"help", spec.help},
                            {"tried", spec.tried}};
        add_values(s, spec);
        out.push_back(std::move(s));
    }
    for (const render::FlagSpec& f : render::shape_flags()) {
        nlohmann::json s = {{"name", *f.key ? f.key : "params"},
                            {"flag", f.flag},
                            {"section", "model"},
                            {"type", *f.key ? "whole" : "count"},
                            {"help", f.help}};
        const std::string_view key = std::string_view(f.key) == "expert_ffn" ? "ffn" : f.key;
        if (const auto* b = story::limits::find_whole_number(key)) s["bounds"] = {b->lo, b->hi};
        if (!*f.key) s["bounds"] = {story::limits::kMinParams, story::limits::kMaxParams};
        out.push_back(std::move(s));
    }
    out.push_back({{"name", "global_batch"},
                   {"flag", render::kGlobalBatchFlag.flag},
                   {"section", "training"},
                   {"type", "batch"},
                   {"help", render::kGlobalBatchFlag.help}});
    return out.dump();
}

// The answer for the flags in text (a JSON object of strings).
std::string numbers(const std::string& text) {
    const nlohmann::json flags = nlohmann::json::parse(text, nullptr, false);
    if (!flags.is_object())
        return nlohmann::json{{"errors", {"the input is not a JSON object"}}}.dump();
    render::ConfigValues values;
    for (const auto& [flag, value] : flags.items()) {
        if (!value.is_string())
            return nlohmann::json{{"errors", {flag + ": expected text, as on the command line"}}}
                .dump();
        values.given[flag] = value.get<std::string>();
    }
    engine::Config c = story::default_config();
    std::vector<std::string> errors = render::apply_config_values(values, c);
    if (errors.empty()) errors = engine::validate(c);
    if (!errors.empty()) return nlohmann::json{{"errors", errors}}.dump();
    return nlohmann::json{{"report", render::report_json(engine::analyze(c)).dump(2)}}.dump();
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
}
