// What the parsers of story/load/ share: one load's context (its file, diagnostics and the
// languages it resolves text to) and the reading of a map's entries and their values, every
// error collected at its node's position.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "story/load/keys.hpp"
#include "story/load/yaml_tree.hpp"
#include "story/storyboard/diagnostics.hpp"
#include "story/storyboard/languages.hpp"
#include "story/storyboard/limits.hpp"

namespace story::load {

using yaml::Entry;
using Entries = std::map<std::string, Entry>;  // a map's known keys, each first entry

struct Context {
    const std::string& file;
    Diagnostics& diags;
    std::vector<Diagnostic>& warnings;
    Languages langs;  // set from the languages parser before any text field is read

    void error(SourcePos pos, std::string message) { diags.error(file, pos, std::move(message)); }
    void error(const yaml::Node& at, std::string message) { error(at.pos, std::move(message)); }
};

// How many diagnostics the load has found so far: a point of the parse, where configure.hpp's
// step puts back what it finds about what was read there.
inline std::size_t found(const Context& ctx) { return ctx.diags.list().size(); }

const Entry* find(const Entries& entries, const std::string& key);

// The entries of a map, reporting keys that are not names, unknown keys (with a suggestion)
// and repeated ones.
Entries entries(Context& ctx, const yaml::Node& map, const Keys& known, const std::string& where);
// The entries of e's value when it is a map; otherwise reports the type error.
std::optional<Entries> map_of(Context& ctx, const Entry& e, const Keys& known,
                              const std::string& where);
// The entries of each map in e's list.
std::vector<Entries> items(Context& ctx, const Entry& e, const Keys& known,
                           const std::string& where);

std::optional<std::string> scalar(Context& ctx, const Entry& e);
std::optional<std::string> text(Context& ctx, const Entry& e);  // a scalar, or "" for nothing
std::optional<long long> integer(Context& ctx, const Entry& e, limits::Bound bound);
std::optional<double> time_of(Context& ctx, const Entry& e, int fps);
// A time or a level within its range (limits::kRanges).
std::optional<double> ranged(Context& ctx, const Entry& e, const limits::Range& r, int fps);
// A file or folder name, relative to the storyboard's folder (render checks that it exists).
std::optional<std::string> file_name(Context& ctx, const Entry& e);

std::string unknown_choice(const limits::Choice& choice, const std::string& value);

// A keyword of `choice` (limits::kChoices) read with `parse` (text to an optional T) into field.
template <class T, class Parse>
void keyword(Context& ctx, const Entry& e, const limits::Choice& choice, Parse parse, T& field) {
    if (!scalar(ctx, e)) return;
    if (auto value = parse(e.value->text))
        field = *value;
    else
        ctx.error(*e.value, unknown_choice(choice, e.value->text));
}

}  // namespace story::load
