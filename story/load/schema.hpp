// The storyboard's JSON Schema (draft-07), derived from what the loader reads: its keys
// (schema_keys.hpp), the limits table, the flat settings, the chapter kinds and the presets.
// storyboards/schema.json is this text (`shardreel schema`); a test keeps the two equal.
#pragma once
#include <string>

namespace story {

// Pretty-printed with a two-space indent, ending in a newline.
std::string storyboard_schema();

}  // namespace story
