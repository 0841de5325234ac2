// Parse a storyboard from YAML text. Pure: the caller reads the file. All errors are collected.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "story/diagnostics.hpp"
#include "story/storyboard.hpp"

namespace story {

// Returns the storyboard when diags stays empty; otherwise std::nullopt and every error found.
// Every text field (a string or a map by language) is resolved to the storyboard's own language.
std::optional<Storyboard> parse_storyboard(const std::string& text, const std::string& file,
                                           Diagnostics& diags);
// The same resolved to `lang` (a canonical tag the storyboard lists; empty: its own language),
// adding the warnings of the translations that fall back.
std::optional<Storyboard> parse_storyboard(const std::string& text, const std::string& file,
                                           Diagnostics& diags, std::vector<Diagnostic>& warnings,
                                           const std::string& lang);

}  // namespace story
