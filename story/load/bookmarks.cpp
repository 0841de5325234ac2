// Bookmarks; see bookmarks.hpp.
#include "story/load/bookmarks.hpp"

#include <algorithm>

namespace story::load {

bool is_mark_name(std::string_view name) {
    return !name.empty() && std::ranges::all_of(name, [](char ch) {
        return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '-';
    });
}

std::vector<std::string> take_bookmarks(std::string& say, std::vector<Bookmark>& marks) {
    std::vector<std::string> problems;
    std::string out;
    std::size_t i = 0;
    while (i < say.size()) {
        const std::size_t open = say.find("[[", i), close = say.find("]]", open);
        if (open == std::string::npos || close == std::string::npos) {
            if (open != std::string::npos)
                problems.push_back("unclosed bookmark '" + say.substr(open, 24) +
                                   "' in say: (write [[name]] before a word)");
            out += say.substr(i);
            break;
        }
        out += say.substr(i, open - i);
        const std::string name = say.substr(open + 2, close - open - 2);
        i = close + 2;
        if (out.empty() || out.back() == ' ')
            while (i < say.size() && say[i] == ' ') ++i;
        if (!is_mark_name(name)) {
            problems.push_back("bad bookmark '[[" + name +
                               "]]' in say: (names use a-z, 0-9, '_' and '-')");
            continue;
        }
        const std::size_t word = std::min(say.find_first_not_of(' ', i), say.size());
        marks.push_back({name, out.size() + (word - i)});
    }
    while (!out.empty() && out.back() == ' ' && !say.ends_with(' ')) out.pop_back();
    for (Bookmark& m : marks) m.offset = std::min(m.offset, out.size());
    say = std::move(out);
    return problems;
}

namespace {

// Whether an earlier beat's line has beat i's bookmark in any language (a beat starting on
// it); reports each translation of that line that lacks it.
bool translated_mark(Context& ctx, const ChapterSpec& spec, const Lines& lines, std::size_t i) {
    const Beat& b = spec.beats[i];
    const auto has = [&](const Line& l) {
        return std::ranges::count(l.marks, b.mark, &Bookmark::name) > 0;
    };
    for (std::size_t j = 0; j < i; ++j) {
        const auto it = lines.find(spec.beats[j].number);
        if (it == lines.end() || std::ranges::none_of(it->second, has)) continue;
        const TextPlace place{"say:", spec.id, spec.beats[j].number};
        for (const Line& l : it->second)
            if (!has(l))
                ctx.error(l.pos, "the " + l.lang + " text of " + place.describe() +
                                     " lacks the bookmark '[[" + b.mark +
                                     "]]' that the beat on line " + std::to_string(b.pos.line) +
                                     " starts on: write [[" + b.mark +
                                     "]] before the word it marks in every translation");
        return true;
    }
    return false;
}

std::string missing_bookmark(const ChapterSpec& spec, std::size_t i,
                             const std::map<std::string, int>& seen) {
    const std::string name = spec.beats[i].mark;
    for (std::size_t j = i; j < spec.beats.size(); ++j) {
        if (std::ranges::count(spec.beats[j].marks, name, &Bookmark::name) == 0) continue;
        const std::string where =
            j == i ? "this beat's own line"
                   : "a later beat (line " + std::to_string(spec.beats[j].pos.line) + ")";
        return "bookmark '" + name + "' is in " + where +
               ", but a beat can start only on a bookmark of an earlier one";
    }
    std::vector<std::string> names;
    for (const auto& [known, line] : seen) names.push_back(known);
    const std::string message =
        "no bookmark '" + name + "' in an earlier beat of chapter '" + spec.id + "'";
    if (std::string hint = closest_match(name, names); !hint.empty())
        return message + " (did you mean '" + hint + "'?)";
    return message + " (write [[" + name + "]] before a word of an earlier say:)";
}

}  // namespace

void check_bookmarks(Context& ctx, const ChapterSpec& spec, const Lines& lines) {
    std::map<std::string, int> seen;  // bookmark name -> line of its beat
    for (std::size_t i = 0; i < spec.beats.size(); ++i) {
        const Beat& b = spec.beats[i];
        const bool translated = b.rule == AtRule::mark && translated_mark(ctx, spec, lines, i);
        if (b.rule == AtRule::mark && !seen.contains(b.mark) && !translated)
            ctx.error(b.at_pos, missing_bookmark(spec, i, seen));
        for (const Bookmark& m : b.marks) {
            if (auto [it, fresh] = seen.emplace(m.name, b.pos.line); !fresh)
                ctx.error(b.say_pos, "bookmark '[[" + m.name + "]]' is already in chapter '" +
                                         spec.id + "' (on line " + std::to_string(it->second) +
                                         ")");
        }
    }
}

}  // namespace story::load
