// Shared by the choreography tests (story and render, unvoiced and voiced): each beat of a chapter
// that shows a phase begins that phase, and the drawing follows it.
#pragma once
#include <algorithm>
#include <cmath>

#include "story/chapter/chapter.hpp"
#include "story/chapter/choreography.hpp"
#include "story/scene/text_metrics.hpp"
#include "tests/catch.hpp"

namespace chapter_test {

// Checks each beat that shows a phase of `spec`'s kind; returns how many there are.
inline int check_pins(const story::ChapterSpec& spec, const story::Video& video,
                      const story::TextMetrics& metrics = story::ApproxTextMetrics()) {
    const story::KindInfo* kind = story::find_kind(spec.kind);
    const story::Choreography choreography(spec, kind);
    const std::vector<story::Phase> phases = story::phases_of(*kind, spec);
    int pinned = 0;
    for (std::size_t i = 0; i < spec.beats.size(); ++i) {
        const story::Beat& b = spec.beats[i];
        if (b.show.empty()) continue;
        INFO(spec.id << ": " << b.show);
        ++pinned;
        const auto phase =
            std::ranges::find_if(phases, [&](const story::Phase& p) { return b.show == p.name; });
        REQUIRE(phase != phases.end());
        CHECK(std::abs(choreography.at(phase->at) - b.at) <= 1.0 / video.fps);
        // Unpinned, where the kind's own pace puts that moment half a second or more away from
        // the beat (some lines were timed to it by hand), the chapter draws it elsewhere.
        story::ChapterSpec loose = spec;
        loose.beats[i].show.clear();
        if (std::abs(story::Choreography(loose, kind).at(phase->at) - b.at) < 0.5) continue;
        // Mid-entrance: drawn sooner or later, it differs. A phase shown on a `set:` beat may wait
        // for the morph's halfway, to state the new configuration (pipeline_bubble's rule).
        const auto pinned = story::make_chapter(spec, video, metrics);
        const auto unpinned = story::make_chapter(loose, video, metrics);
        auto differs = [&](double t) { return !(pinned->scene_at(t) == unpinned->scene_at(t)); };
        CHECK((differs(b.at + 0.2) || (!b.set.empty() && differs(b.at + b.over / 2 + 0.2))));
    }
    return pinned;
}

}  // namespace chapter_test
