// The cost model's settings as command-line flags, shared by `numbers` and `plan`: the model
// (--model, --params and a custom shape) and every flat setting (story::apply_setting).
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "engine/config.hpp"
#include "render/inputs/config_values.hpp"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace render {

struct ConfigFlags {
    std::map<std::string, std::string> values;  // by flag; meaningful only when given
    std::map<std::string, CLI::Option*> options;
    std::set<std::string> chosen;  // setting keys the command decides (register_config_flags)
    bool given(const std::string& flag) const;
    ConfigValues given_values() const;  // the flags given, with their text
};

// Registers --model, --params, the shape flags, --global-batch and every setting flag whose
// setting key is not in `chosen` (what the command decides itself, such as the planner's tp).
void register_config_flags(CLI::App* cmd, ConfigFlags& f, const std::set<std::string>& chosen = {});

// Applies the given flags to c (apply_config_values); every problem, one a line.
std::vector<std::string> apply_config_flags(const ConfigFlags& f, engine::Config& c);

}  // namespace render
