// Beats; see beats.hpp.
#include "story/load/beats.hpp"

#include <algorithm>
#include <optional>

#include "story/load/bookmarks.hpp"
#include "story/load/text.hpp"
#include "story/storyboard/units.hpp"

namespace story::load {
namespace {

bool speaks(const Beat& b) { return !b.say.empty(); }

// `at:` a time, `after` (when the beats before it end) or `mark:NAME` (a bookmark's word).
bool start(Context& ctx, const Entry& at, int fps, Beat& b) {
    auto s = scalar(ctx, at);
    if (!s) return false;
    if (*s == "after") {
        b.rule = AtRule::after;
        return true;
    }
    if (s->starts_with("mark:")) {
        b.mark = s->substr(5);
        b.rule = AtRule::mark;
        if (is_mark_name(b.mark)) return true;
        ctx.error(*at.value, "bad bookmark name '" + b.mark + "' in 'at: " + *s +
                                 "' (names use a-z, 0-9, '_' and '-')");
        return false;
    }
    if (auto t = parse_time(*s, fps)) {
        b.at = *t;
        return true;
    }
    if (!closest_match(*s, {"after"}).empty())
        ctx.error(*at.value, "cannot parse '" + *s + "' as a beat's start (did you mean 'after'?)");
    else if (s->starts_with("mark"))
        ctx.error(*at.value, "cannot parse '" + *s + "' as a beat's start (expected mark:NAME)");
    else
        ctx.error(*at.value, unit_error(*s, Quantity::time));
    return false;
}

// The line in the film's language; every translation's bookmarks are kept in `lines` for
// check_bookmarks (and their problems reported, whichever language is loaded).
void say(Context& ctx, const Entry& e, const TextPlace& place, Beat& b, Lines& lines) {
    const WrittenText w = written(ctx, e);
    std::vector<Line>& beat_lines = lines[place.beat];
    for (const Translation& t : w.translations) {
        std::string said = t.text;
        Line& line = beat_lines.emplace_back(Line{t.lang, t.pos, {}});
        for (std::string& problem : take_bookmarks(said, line.marks))
            ctx.error(t.pos, std::move(problem));
    }
    const Translation said = ctx.langs.pick(w, place, ctx.file, ctx.diags, ctx.warnings);
    b.say = said.text;
    b.say_pos = said.pos;
    take_bookmarks(b.say, b.marks);
}

// `set: {PARAM: value}`: parameters the kind can set (their values are checked in time order
// once the chapter's configuration is known).
void settings(Context& ctx, const Entry& e, const KindInfo* kind, Beat& b) {
    b.set_pos = e.key->pos;
    if (!e.value->is_map()) {
        ctx.error(*e.value, "expected a map for 'set', got " + describe(*e.value));
        return;
    }
    for (const Entry& item : e.value->entries) {
        if (!item.key->is_scalar()) {
            ctx.error(*item.key, "expected a parameter name, got " + describe(*item.key));
            continue;
        }
        auto value = scalar(ctx, item);
        if (!value) continue;
        const std::string& key = item.key->text;
        if (kind && !contains(kind->settable, key)) {
            ctx.error(*item.key, missing_parameter(*kind, key));
            continue;
        }
        b.set.push_back(Setting{key, *value, item.key->pos, item.value->pos});
    }
}

// `show: PHASE`: a moment of the kind's choreography that begins with this beat.
void show(Context& ctx, const Entry& e, const KindInfo* kind, Beat& b) {
    auto name = scalar(ctx, e);
    if (!name) return;
    b.show_pos = e.value->pos;
    std::vector<std::string> names;
    if (kind)
        for (const Phase& p : kind->phases) names.push_back(p.name);
    if (!kind || contains(names, *name)) {
        b.show = *name;
        return;
    }
    const std::string message =
        "chapter kind '" + kind->name + "' has no phase '" + *name + "' to show (";
    if (names.empty())
        ctx.error(*e.value, message + "it has none)");
    else if (std::string hint = closest_match(*name, names); !hint.empty())
        ctx.error(*e.value, message + "did you mean '" + hint + "'?)");
    else
        ctx.error(*e.value, message + "it has: " + or_list(names) + ")");
}

// Each phase shown once, and in the kind's order as the beats are written (each begins at its
// beat, so a later phase on an earlier beat would run the choreography backwards).
void check_phases(Context& ctx, const ChapterSpec& spec, const KindInfo& kind) {
    int last = -1;
    std::string last_name;  // of the phase at `last`
    for (const Beat& b : spec.beats) {
        if (b.show.empty()) continue;
        const auto it =
            std::ranges::find_if(kind.phases, [&](const Phase& p) { return b.show == p.name; });
        const int index = static_cast<int>(it - kind.phases.begin());
        if (index < last) {
            ctx.error(b.show_pos, "phase '" + b.show + "' comes before '" + last_name +
                                      "' in kind '" + kind.name + "' (show them in that order)");
        } else if (index == last) {
            ctx.error(b.show_pos, "phase '" + b.show + "' is shown twice in chapter '" + spec.id +
                                      "' (each phase begins once)");
        } else {
            last = index;
            last_name = b.show;
        }
    }
}

std::optional<Beat> beat(Context& ctx, const yaml::Node& node, int fps, const KindInfo* kind,
                         const std::string& where, const TextPlace& place, Lines& lines) {
    Beat b;
    b.pos = node.pos;
    const Entries fields = entries(ctx, node, kBeatKeys, where);
    const Entry* at = find(fields, "at");
    if (!at) {
        ctx.error(node, "missing required key 'at' for a beat " + where);
        return std::nullopt;
    }
    b.at_pos = at->value->pos;
    if (!start(ctx, *at, fps, b)) return std::nullopt;
    if (const Entry* f = find(fields, "say")) say(ctx, *f, place, b, lines);
    if (const Entry* f = find(fields, "over")) b.over = time_of(ctx, *f, fps).value_or(0);
    if (const Entry* f = find(fields, "gap")) b.gap = ranged(ctx, *f, limits::range("gap"), fps);
    if (const Entry* f = find(fields, "take"); f && ctx.langs.film_is_default()) {
        b.take = file_name(ctx, *f).value_or("");
        b.take_pos = f->value->pos;
    }
    if (const Entry* f = find(fields, "sound")) {
        b.sound = file_name(ctx, *f).value_or("");
        b.sound_pos = f->value->pos;
    }
    if (const Entry* f = find(fields, "set")) settings(ctx, *f, kind, b);
    if (const Entry* f = find(fields, "show")) show(ctx, *f, kind, b);
    return b;
}

// A take records a line; narration: recorded needs one for every line, from take: or takes:.
void check_takes(Context& ctx, const ChapterSpec& spec) {
    for (const Beat& b : spec.beats)
        if (!b.take.empty() && !speaks(b))
            ctx.error(b.take_pos, "take: needs a say: on its beat (the line it records)");
    if (spec.narration.engine != VoiceEngine::recorded || !spec.narration.takes.empty()) return;
    for (const Beat& b : spec.beats) {
        if (!speaks(b) || !b.take.empty()) continue;
        ctx.error(b.say_pos, "no recording for this line in chapter '" + spec.id +
                                 "': narration: recorded needs takes: FOLDER, or a take: on "
                                 "the beat");
        return;
    }
}

}  // namespace

void read_beats(Context& ctx, const Entry& e, int fps, const KindInfo* kind,
                const std::string& where, ChapterSpec& spec) {
    if (!e.value->is_sequence()) {
        ctx.error(*e.value, "expected a list of beats for 'beats', got " + describe(*e.value));
        return;
    }
    Lines lines;
    for (std::size_t i = 0; i < e.value->items.size(); ++i) {
        const yaml::Node& node = *e.value->items[i];
        const TextPlace place{"say:", spec.id, static_cast<int>(i + 1)};
        if (!node.is_map()) {
            ctx.error(node, "expected a map for a beat, got " + describe(node));
        } else if (auto b = beat(ctx, node, fps, kind, where, place, lines)) {
            b->number = place.beat;
            spec.beats.push_back(std::move(*b));
        }
    }
    check_bookmarks(ctx, spec, lines);
    check_takes(ctx, spec);
    if (kind) check_phases(ctx, spec, *kind);
}

}  // namespace story::load
