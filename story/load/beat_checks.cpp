// Checks on a chapter's beats; see beat_checks.hpp.
#include "story/load/beat_checks.hpp"

#include <algorithm>

#include "story/chapter/chapter.hpp"
#include "story/storyboard/settings.hpp"
#include "story/storyboard/units.hpp"
#include "story/uses/explore.hpp"

namespace story {

namespace {

// Every explore: combination through the chapter's beats: a value valid where the chapter starts
// may not be once a beat sets something else (micro_batches 1 under an interleaved schedule of
// pp 4). Reported at the explore: key, once per combination, naming the beat.
void check_explore(const ChapterSpec& spec, const KindInfo* kind, const std::string& file,
                   const std::string& where, Diagnostics& errors) {
    if (spec.explore.empty()) return;
    for (const Variant& v : explore_variants(spec)) {
        std::string values;
        for (const Setting& s : v.settings)
            values += (values.empty() ? "" : ", ") + s.key + " " + s.value;
        engine::Config config = v.spec.config;
        std::optional<std::string> problem;
        const Beat* at = nullptr;
        for (const std::string& p : config_problems(config, kind)) problem = p;
        for (const Beat& b : v.spec.beats) {
            if (problem) break;
            for (const Setting& s : b.set) apply_setting(config, s.key, s.value);
            for (const std::string& p : config_problems(config, kind)) {
                problem = p;
                at = &b;
            }
        }
        if (!problem) continue;
        errors.error(file, spec.explore.front().pos,
                     "explore: " + values + " gives an invalid configuration " + where +
                         (at ? " once the set: at " + format_seconds(at->at) + " (line " +
                                   std::to_string(at->set_pos.line) + ") applies"
                             : "") +
                         ": " + *problem + "; drop that value or change the chapter");
        return;  // one combination shows the problem; the others would repeat it
    }
}

// A phase the kind has but not in this configuration (layout_3d turns to context-parallel
// groups only where cp > 1).
void check_phases_drawn(const ChapterSpec& spec, const KindInfo& kind, const std::string& file,
                        Diagnostics& errors) {
    const std::vector<Phase> phases = phases_of(kind, spec);
    std::vector<std::string> names;
    for (const Phase& p : phases) names.push_back(p.name);
    for (const Beat& b : spec.beats)
        if (!b.show.empty() && std::ranges::find(names, b.show) == names.end())
            errors.error(file, b.show_pos,
                         "chapter '" + spec.id + "' of kind '" + kind.name + "' has no phase '" +
                             b.show + "' in its configuration (its phases: " + or_list(names) +
                             "); drop the show: or give it the axis that phase draws");
}

}  // namespace

void check_beats(const ChapterSpec& spec, const std::string& file, const std::string& where,
                 Diagnostics& errors) {
    std::vector<const Beat*> order;
    for (const Beat& b : spec.beats) order.push_back(&b);
    std::ranges::stable_sort(order, {}, [](const Beat* b) { return b->at; });
    const std::string chapter = "chapter '" + spec.id + "' (duration " +
                                (spec.auto_duration ? "auto, " + format_moment(spec.duration)
                                                    : format_seconds(spec.duration)) +
                                ")";
    for (std::size_t i = 0; i < order.size(); ++i) {
        const Beat& b = *order[i];
        if (i > 0 && order[i - 1]->at == b.at)
            errors.error(file, b.at_pos,
                         "two beats at " + format_seconds(b.at) + " in chapter '" + spec.id +
                             "' (the other is on line " +
                             std::to_string(order[i - 1]->at_pos.line) + ")");
        if (spec.duration <= 0) continue;  // unknown kind and no duration: nothing to check
        if (b.at > spec.duration)
            errors.error(file, b.at_pos,
                         "beat at " + format_seconds(b.at) + " is outside " + chapter);
        else if (b.at + b.over > spec.duration)
            errors.error(file, b.at_pos,
                         "beat at " + format_seconds(b.at) + " over " + format_seconds(b.over) +
                             " ends after the end of " + chapter);
    }
    // The settings act one after another, so each beat's config is checked as it will be shown.
    const KindInfo* kind = find_kind(spec.kind);
    engine::Config config = spec.config;
    for (const Beat* b : order) {
        bool applied = true;
        for (const Setting& s : b->set) {
            if (auto message = apply_setting(config, s.key, s.value)) {
                errors.error(file, s.value_pos, *message);
                applied = false;
            }
        }
        if (!applied || b->set.empty()) continue;
        for (const std::string& problem : config_problems(config, kind))
            errors.error(file, b->set_pos,
                         "set: at " + format_seconds(b->at) + " makes the configuration " + where +
                             " invalid: " + problem);
    }
    if (kind && errors.empty()) check_phases_drawn(spec, *kind, file, errors);
    if (errors.empty()) check_explore(spec, kind, file, where, errors);
}

}  // namespace story
