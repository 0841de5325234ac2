// See choreography.hpp.
#include "story/chapter/choreography.hpp"

#include <algorithm>
#include <optional>

#include "story/chapter/chapter.hpp"

namespace story {
namespace {

// The start of the beat that shows each phase, by phase index (nullopt: none does).
std::vector<std::optional<double>> pinned_phases(const ChapterSpec& spec,
                                                 const std::vector<Phase>& phases) {
    std::vector<std::optional<double>> out(phases.size());
    for (const Beat& b : spec.beats)
        for (std::size_t i = 0; i < phases.size(); ++i)
            if (!b.show.empty() && b.show == phases[i].name) out[i] = b.at;
    return out;
}

// The stretch of a piecewise-linear map from `from` to `to` holding x, mapped.
double through(const std::vector<std::pair<double, double>>& anchors, double x,
               double std::pair<double, double>::*from, double std::pair<double, double>::*to) {
    // The segment holding it; past the last anchor the last segment's rate goes on.
    std::size_t i = 1;
    while (i + 1 < anchors.size() && x > anchors[i].*from) ++i;
    const double x0 = anchors[i - 1].*from, x1 = anchors[i].*from;
    const double y0 = anchors[i - 1].*to, y1 = anchors[i].*to;
    if (y1 - y0 == x1 - x0) return y0 + (x - x0);  // the kind's own pace, exactly
    return y0 + (x - x0) * (y1 - y0) / (x1 - x0);
}

}  // namespace

Choreography::Choreography(const ChapterSpec& spec, const KindInfo* kind) {
    const double length = kind ? kind->default_duration : spec.duration;
    anchors_.push_back({0, 0});
    if (kind) {
        const std::vector<Phase> phases = phases_of(*kind, spec);
        const auto pinned = pinned_phases(spec, phases);
        for (std::size_t i = 0; i < pinned.size(); ++i) {
            // The loader keeps pinned phases in order; one out of order would fold time back.
            if (pinned[i] && phases[i].at > anchors_.back().first &&
                *pinned[i] > anchors_.back().second)
                anchors_.push_back({phases[i].at, *pinned[i]});
        }
        pinned_ = anchors_.size() > 1;
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
    using Anchor = std::pair<double, double>;
    return through(anchors_, authored, &Anchor::first, &Anchor::second);
}

double Choreography::authored(double seconds) const {
    if (anchors_.size() < 2) return seconds;
    using Anchor = std::pair<double, double>;
    return through(anchors_, seconds, &Anchor::second, &Anchor::first);
}

}  // namespace story
