// Chapters; see chapters.hpp.
#include "story/load/chapters.hpp"

#include <algorithm>
#include <limits>
#include <map>

#include "story/load/beats.hpp"
#include "story/load/narration.hpp"
#include "story/load/text.hpp"
#include "story/storyboard/units.hpp"

namespace story::load {
namespace {

using Ids = std::map<std::string, SourcePos>;  // chapter id -> where it was first given

void chapter_id(Context& ctx, const Entry& e, ChapterSpec& spec, Ids& ids) {
    auto id = scalar(ctx, e);
    if (!id) return;
    spec.id = *id;
    const bool valid = !id->empty() && std::ranges::all_of(*id, [](char ch) {
        return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-';
    });
    if (!valid) {
        ctx.error(*e.value, "chapter id '" + *id + "' may only use a-z, 0-9 and '-'");
    } else if (auto [it, fresh] = ids.emplace(*id, e.value->pos); !fresh) {
        ctx.error(*e.value, "duplicate chapter id '" + *id + "' (first used on line " +
                                std::to_string(it->second.line) + ")");
    }
}

const KindInfo* chapter_kind(Context& ctx, const Entry& e, ChapterSpec& spec) {
    auto name = scalar(ctx, e);
    if (!name) return nullptr;
    spec.kind = *name;
    const KindInfo* kind = find_kind(*name);
    if (!kind) ctx.error(*e.value, unknown_name("chapter kind", *name, kind_names()));
    return kind;
}

void chapter_duration(Context& ctx, const Entry& e, int fps, ChapterSpec& spec) {
    if (e.value->is("auto")) {
        spec.auto_duration = true;
        return;
    }
    auto d = time_of(ctx, e, fps);
    if (!d) return;
    if (auto problem = limits::chapter_duration_error(*d, fps))
        ctx.error(*e.value, *problem);
    else
        spec.duration = *d;
}

// tail or stretch: whether the choreography is stretched to the duration.
std::optional<bool> parse_fit(std::string_view value) {
    const auto& names = limits::kFits;
    const auto it = std::ranges::find(names, value);
    if (it == std::end(names)) return std::nullopt;
    return *it == "stretch";
}

// `figure: TIME` or `end`: when the article page's figure of the chapter shows.
void figure(Context& ctx, const Entry& e, int fps, ChapterSpec& spec) {
    if (e.value->is("end")) {
        spec.figure = std::numeric_limits<double>::infinity();
        return;
    }
    auto t = time_of(ctx, e, fps);
    if (t && *t > spec.duration && !spec.auto_duration)
        ctx.error(*e.value, "figure: " + e.value->text + " is after the chapter's end (" +
                                format_seconds(spec.duration) + "); give a time within it or end");
    else if (t)
        spec.figure = *t;
}

// The explore: of each beat (a map in a list under the first `beats` key), whatever else the
// beat holds.
std::vector<std::pair<Entry, int>> beat_explores(const yaml::Node& node) {
    std::vector<std::pair<Entry, int>> out;
    const Entry* beats = node.entry("beats");
    if (!beats || !beats->value->is_sequence()) return out;
    for (std::size_t i = 0; i < beats->value->items.size(); ++i)
        if (const Entry* e = beats->value->items[i]->entry("explore"))
            out.emplace_back(*e, static_cast<int>(i + 1));
    return out;
}

// Its id, kind, titles and timing.
void chapter_head(Context& ctx, const Entries& fields, const yaml::Node& node, int fps,
                  ChapterDraft& draft, Ids& ids) {
    ChapterSpec& spec = draft.spec;
    if (const Entry* f = find(fields, "id"))
        chapter_id(ctx, *f, spec, ids);
    else
        ctx.error(node, "missing required key 'id' " + draft.where);
    if (const Entry* f = find(fields, "kind"))
        draft.kind = chapter_kind(ctx, *f, spec);
    else
        ctx.error(node, "missing required key 'kind' " + draft.where);
    if (const Entry* f = find(fields, "title")) spec.title = localized(ctx, *f, {"title", spec.id});
    if (const Entry* f = find(fields, "subtitle"))
        spec.subtitle = localized(ctx, *f, {"subtitle", spec.id});
    spec.duration = draft.kind ? draft.kind->default_duration : 0;
    if (const Entry* f = find(fields, "duration")) chapter_duration(ctx, *f, fps, spec);
    if (const Entry* f = find(fields, "fit"))
        keyword(ctx, *f, limits::choice("fit"), parse_fit, spec.stretch);
}

ChapterDraft chapter(Context& ctx, const yaml::Node& node, std::size_t index, const Video& video,
                     Ids& ids) {
    ChapterDraft draft;
    ChapterSpec& spec = draft.spec;
    spec.pos = node.pos;
    spec.narration = video.narration;
    const Entry* id = node.entry("id");
    draft.where = id && id->value->is_scalar() ? "in chapter '" + id->value->text + "'"
                                               : "in chapter " + std::to_string(index + 1);
    const Entries fields = entries(ctx, node, kChapterKeys, draft.where);
    chapter_head(ctx, fields, node, video.fps, draft, ids);
    if (const Entry* f = find(fields, "narration"))
        spec.narration = read_narration(ctx, *f, spec.narration, video.fps);
    draft.config = read_config(ctx, fields, draft.where);
    if (const Entry* f = find(fields, "beats"))
        read_beats(ctx, *f, video.fps, draft.kind, draft.where, spec);
    draft.beats_found = found(ctx);
    if (const Entry* f = find(fields, "figure")) figure(ctx, *f, video.fps, spec);
    draft.figure_found = found(ctx);
    if (const Entry* f = find(fields, "explore")) draft.explore = *f;
    draft.beat_explores = beat_explores(node);
    const bool speaks =
        std::ranges::any_of(spec.beats, [](const Beat& b) { return !b.say.empty(); });
    if (spec.auto_duration && !speaks)
        ctx.error(*find(fields, "duration")->value,
                  "duration: auto needs a beat with a say: (the chapter ends after its last "
                  "line)");
    return draft;
}

// The chapters whose lengths are known now (story::timed adds the auto ones).
void film_length(Context& ctx, const Entry& e, const std::vector<ChapterDraft>& drafts) {
    double total = 0;
    for (const ChapterDraft& d : drafts)
        if (!d.spec.auto_duration) total += d.spec.duration;
    if (auto problem = limits::film_length_error(total)) ctx.error(*e.key, *problem);
}

}  // namespace

std::vector<ChapterDraft> read_chapters(Context& ctx, const Entry& e, const Video& video) {
    std::vector<ChapterDraft> out;
    if (!e.value->is_sequence()) {
        ctx.error(*e.value,
                  "expected a list of chapters for 'chapters', got " + describe(*e.value));
        return out;
    }
    if (e.value->size() == 0)
        ctx.error(*e.value, "'chapters' is empty (a storyboard needs at least one)");
    Ids ids;
    for (std::size_t i = 0; i < e.value->items.size(); ++i) {
        const yaml::Node& node = *e.value->items[i];
        if (!node.is_map()) {
            ctx.error(node, "expected a map for chapter " + std::to_string(i + 1) + ", got " +
                                describe(node));
            continue;
        }
        out.push_back(chapter(ctx, node, i, video, ids));
    }
    film_length(ctx, e, out);
    return out;
}

}  // namespace story::load
