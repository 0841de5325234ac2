// The chapter kinds a storyboard may use, registered by their own files under story/chapters/.
#include <algorithm>
#include <stdexcept>

#include "story/chapter/chapter.hpp"
#include "story/chapter/choreography.hpp"
#include "story/time/timeline.hpp"

namespace story {

namespace {

std::vector<KindInfo>& registry() {
    static std::vector<KindInfo> kinds;  // built during static initialisation, read-only after
    return kinds;
}

}  // namespace

KindRegistrar::KindRegistrar(KindInfo info) {
    auto& kinds = registry();
    const auto at =
        std::lower_bound(kinds.begin(), kinds.end(), info.name,
                         [](const KindInfo& k, const std::string& n) { return k.name < n; });
    kinds.insert(at, std::move(info));
}

const std::vector<KindInfo>& chapter_kinds() { return registry(); }

const KindInfo* find_kind(std::string_view name) {
    const auto& kinds = chapter_kinds();
    auto it =
        std::find_if(kinds.begin(), kinds.end(), [&](const KindInfo& k) { return k.name == name; });
    return it == kinds.end() ? nullptr : &*it;
}

std::vector<Phase> phases_of(const KindInfo& kind, const ChapterSpec& spec) {
    return kind.phases_of ? kind.phases_of(spec) : kind.phases;
}

std::vector<std::string> kind_names() {
    std::vector<std::string> names;
    for (const KindInfo& k : chapter_kinds()) names.push_back(k.name);
    return names;
}

std::vector<std::string> config_problems(const engine::Config& c, const KindInfo* kind) {
    std::vector<std::string> out = engine::validate(c);
    if (kind && kind->cannot_draw)
        if (auto message = kind->cannot_draw(c)) out.push_back(*message);
    return out;
}

std::unique_ptr<Chapter> make_chapter(const ChapterSpec& spec, const Video& video,
                                      const TextMetrics& metrics) {
    const KindInfo* kind = find_kind(spec.kind);
    if (!kind) throw std::logic_error("unvalidated chapter kind: " + spec.kind);
    return kind->make(spec, video, metrics);
}

engine::Config as_drawn(std::string_view kind, const engine::Config& c) {
    const KindInfo* info = find_kind(kind);
    return info && info->facts.shown ? info->facts.shown(c) : c;
}

bool figures_drawn(const ChapterSpec& spec, double t, int fps) {
    const KindInfo* info = find_kind(spec.kind);
    return !info || !info->facts.drawn_at || info->facts.drawn_at(spec, t, fps);
}

bool later_figures_drawn(const ChapterSpec& spec, double t) {
    const KindInfo* info = find_kind(spec.kind);
    if (!info || !info->facts.later_phase) return true;
    for (const Phase& p : phases_of(*info, spec))
        if (std::string_view(p.name) == info->facts.later_phase)
            return t >= Choreography(spec, info).at(p.at);
    return true;
}

engine::Config drawn_at(const ChapterSpec& spec, double t, int fps) {
    const engine::Config on_screen = Timeline(spec, fps).state_at(t);
    return figures_drawn(spec, t, fps) ? as_drawn(spec.kind, on_screen) : on_screen;
}

}  // namespace story
