// See choreography.hpp.
#include "story/choreography.hpp"

#include <algorithm>
#include <optional>

#include "story/chapter.hpp"

namespace story {
namespace {

// The start of the beat that shows each of kind's phases, by phase index (nullopt: none does).
std::vector<std::optional<double>> pinned_phases(const ChapterSpec& spec, const KindInfo& kind) {
    std::vector<std::optional<double>> out(kind.phases.size());
    for (const Beat& b : spec.beats)
        for (std::size_t i = 0; i < kind.phases.size(); ++i)
            if (!b.show.empty() && b.show == kind.phases[i].name) out[i] = b.at;
    return out;
}

}  // namespace

Choreography::Choreography(const ChapterSpec& spec, const KindInfo* kind) {
    const double length = kind ? kind->default_duration : spec.duration;
    anchors_.push_back({0, 0});
    if (kind) {
        const auto pinned = pinned_phases(spec, *kind);
        for (std::size_t i = 0; i < pinned.size(); ++i) {
            // The loader keeps pinned phases in order; one out of order would fold time back.
            if (pinned[i] && kind->phases[i].at > anchors_.back().first &&
                *pinned[i] > anchors_.back().second)
                anchors_.push_back({kind->phases[i].at, *pinned[i]});
        }
    }
    // After the last pinned phase: on to the chapter's end (stretch, or a chapter too short for
    // the kind's pace), else at the kind's own pace.
    const auto [a, t] = anchors_.back();
    const double own_pace = t + (length - a);
    const double end = spec.stretch ? spec.duration : std::min(spec.duration, own_pace);
    if (length > a && end > t) anchors_.push_back({length, end});
}

double Choreography::at(double authored) const {
    if (anchors_.size() < 2) return authored;
    // The segment holding it; past the last anchor the last segment's rate goes on.
    std::size_t i = 1;
    while (i + 1 < anchors_.size() && authored > anchors_[i].first) ++i;
    const auto [a0, t0] = anchors_[i - 1];
    const auto [a1, t1] = anchors_[i];
    if (t1 - t0 == a1 - a0) return t0 + (authored - a0);  // the kind's own pace, exactly
    return t0 + (authored - a0) * (t1 - t0) / (a1 - a0);
}

}  // namespace story
