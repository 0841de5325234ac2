// The cost model's settings as flags; see config_flags.hpp.
#include "render/cli/config_flags.hpp"

#include <CLI/CLI.hpp>

#include "story/storyboard/limits.hpp"
#include "story/storyboard/settings.hpp"

namespace render {
namespace {

// Every setting but the model (--model, with --params and the shape) is a flag, applied in the
// settings' order (story/storyboard/settings.hpp), so --gpu brings its links before --nvlink /
// --network override them.
bool is_flag(const story::SettingSpec& s) { return s.section != story::SettingSection::model; }

// The flag's help, with the keywords or presets it takes.
std::string help_of(const story::SettingSpec& s) {
    std::vector<std::string> names;
    if (s.type == story::SettingType::choice) names = story::limits::find_choice(s.name)->listed();
    if (s.type == story::SettingType::gpu)
        for (const engine::GpuSpec& g : engine::gpu_presets()) names.push_back(g.name);
    std::string out = s.help;
    for (std::size_t i = 0; i < names.size(); ++i) out += (i ? " | " : ": ") + names[i];
    return out;
}

void register_flag(CLI::App* cmd, ConfigFlags& f, const std::string& flag, std::string& into,
                   const std::string& help) {
    f.options[flag] = cmd->add_option(flag, into, help);
}

}  // namespace

bool ConfigFlags::given(const std::string& flag) const {
    const auto it = options.find(flag);
    return it != options.end() && it->second->count() > 0;
}

void register_config_flags(CLI::App* cmd, ConfigFlags& f, const std::set<std::string>& chosen) {
    f.chosen = chosen;
    const story::SettingSpec& model = *story::find_setting("model");
    register_flag(cmd, f, model.flag, f.values[model.flag], model.help);
    for (const FlagSpec& s : shape_flags()) register_flag(cmd, f, s.flag, f.values[s.flag], s.help);
    for (const story::SettingSpec& s : story::settings()) {
        if (!is_flag(s) || chosen.contains(s.name)) continue;
        register_flag(cmd, f, s.flag, f.values[s.flag], help_of(s));
    }
    register_flag(cmd, f, kGlobalBatchFlag.flag, f.values[kGlobalBatchFlag.flag],
                  kGlobalBatchFlag.help);
}

ConfigValues ConfigFlags::given_values() const {
    ConfigValues v{{}, chosen};
    for (const auto& [flag, text] : values)
        if (given(flag)) v.given[flag] = text;
    return v;
}

std::vector<std::string> apply_config_flags(const ConfigFlags& f, engine::Config& c) {
    return apply_config_values(f.given_values(), c);
}

}  // namespace render
