// Parse a storyboard from YAML text. Pure: the caller reads the file. All errors are collected.
// The text is parsed once into a plain tree (story/load/yaml_tree.hpp), then resolved in any of
// its languages by the parsers in story/load/.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "story/storyboard/diagnostics.hpp"
#include "story/storyboard/storyboard.hpp"

namespace story {

namespace yaml {
class Tree;
}

// A storyboard's text parsed: what each of its languages is resolved from, so that a command
// reads and parses a file once however many languages it loads. Copies share the tree.
struct ParsedStoryboard {
    std::string file;
    std::shared_ptr<const yaml::Tree> tree;  // nullptr when `errors` stopped the parse
    Diagnostics errors;  // the text too large or too deep, invalid YAML, too many nodes
};

ParsedStoryboard parse_storyboard_text(const std::string& text, const std::string& file);

// The storyboard resolved to `lang` (a canonical tag the storyboard lists; empty: its own
// language), adding the warnings of the translations that fall back. Returns it when it adds no
// errors to diags (the parse's among them); otherwise std::nullopt and every error found.
std::optional<Storyboard> resolve_storyboard(const ParsedStoryboard& parsed, Diagnostics& diags,
                                             std::vector<Diagnostic>& warnings,
                                             const std::string& lang = "");

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
