// The languages of a storyboard (`languages:`, `fallback:`, `video: lang`) and its text fields,
// each written as a string or a map by language and resolved to the language of the load.
#pragma once
#include <functional>
#include <optional>
#include <string>

#include "story/load/fields.hpp"

namespace story::load {

// The storyboard's languages with the film's: `requested` (--lang, canonical) or, when empty,
// the storyboard's own.
Languages read_languages(Context& ctx, const Entries& top, const std::optional<Entries>& video,
                         const yaml::Node& root, const std::string& requested);

// e's value as a language tag, in its canonical case.
std::optional<std::string> language_tag(Context& ctx, const Entry& e);

// Each entry of e's map by language whose key is a well-formed tag the storyboard lists, as
// (language, entry); the others reported.
void each_language(Context& ctx, const Entry& e,
                   const std::function<void(const std::string&, const Entry&)>& each);

// A text field as written: a string (the default language's) or a map by language.
WrittenText written(Context& ctx, const Entry& e);
// A text field in the film's language (Languages::pick).
std::string localized(Context& ctx, const Entry& e, const TextPlace& place);

}  // namespace story::load
