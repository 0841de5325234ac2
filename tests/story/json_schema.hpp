// Test helpers for the storyboard schema: YAML read as JSON the way an editor's YAML 1.2
// language server does, and a validator for the subset of JSON Schema draft-07 that
// storyboards/schema.json uses (anything else is reported, so the subset cannot drift).
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace schema_test {

// Parses YAML text into JSON: quoted scalars are strings; plain ones are null, booleans,
// integers or floats by the YAML 1.2 core schema, else strings. Throws YAML::Exception.
nlohmann::json yaml_to_json(const std::string& yaml_text);

// Every violation as "PATH: message" (PATH like /chapters/1/beats/0/set), empty when valid.
std::vector<std::string> validate(const nlohmann::json& schema, const nlohmann::json& value);

}  // namespace schema_test
