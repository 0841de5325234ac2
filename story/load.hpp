// Parse a storyboard from YAML text. Pure: the caller reads the file. All errors are collected.
#pragma once
#include <optional>
#include <string>

#include "story/diagnostics.hpp"
#include "story/storyboard.hpp"

namespace story {

// Returns the storyboard when diags stays empty; otherwise std::nullopt and every error found.
std::optional<Storyboard> parse_storyboard(const std::string& text, const std::string& file,
                                           Diagnostics& diags);

}  // namespace story
