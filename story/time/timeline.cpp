// Beat timeline: parameter states and captions of one chapter.
#include "story/time/timeline.hpp"

#include <stdexcept>

#include "story/storyboard/settings.hpp"
#include "story/time/film_time.hpp"

namespace story {

Timeline::Timeline(const ChapterSpec& spec) : states_{spec.config}, starts_{0}, overs_{0} {
    for (std::size_t i = 0; i < spec.beats.size(); ++i) {
        const Beat& beat = spec.beats[i];
        if (!beat.say.empty()) cues_.push_back({beat.at, caption_end(spec, i), beat.say});
        if (beat.set.empty()) continue;
        engine::Config next = states_.back();
        for (const Setting& s : beat.set)
            if (auto err = apply_setting(next, s.key, s.value))
                throw std::logic_error("unvalidated setting reached the timeline: " + *err);
        states_.push_back(next);
        starts_.push_back(beat.at);
        overs_.push_back(beat.over);
    }
}

Morph Timeline::morph_at(double t, Ease e) const {
    int k = 0;
    while (k + 1 < static_cast<int>(states_.size()) && starts_[k + 1] <= t) ++k;
    if (k == 0) return {0, 0, 1};
    return {k - 1, k, progress(t, starts_[k], overs_[k], e)};
}

const Cue* Timeline::cue_at(double t) const {
    for (const Cue& c : cues_)
        if (t >= c.start && t < c.end) return &c;
    return nullptr;
}

}  // namespace story
