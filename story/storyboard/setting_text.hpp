// A setting's value in a configuration, written back as the text its flag and `set:` take:
// apply_setting(c2, name, setting_text(c, name)) gives c2 the value c has (settings.hpp reads
// the other way). The article page links a chapter's configuration to the calculator with it.
#pragma once
#include <string>

#include "engine/config.hpp"

namespace story {

// name: a setting of settings.hpp other than model (its text depends on the shape, see
// render/inputs/config_values.hpp); an unknown name gives "".
std::string setting_text(const engine::Config& c, const std::string& name);

}  // namespace story
