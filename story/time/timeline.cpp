// Beat timeline: parameter states, rest points and captions of one chapter.
#include "story/time/timeline.hpp"

#include <algorithm>
#include <stdexcept>

#include "story/storyboard/settings.hpp"
#include "story/storyboard/time.hpp"

namespace story {

namespace {

constexpr double kSettle = 0.5;  // seconds after a beat (and its morph) when the picture rests

// See Timeline::rest_frame.
std::vector<int> rest_frames(const ChapterSpec& spec, int fps) {
    const int frames = frame_count(spec.duration, fps), last = std::max(0, frames - 1);
    std::vector<int> out;
    for (std::size_t i = 0; i < spec.beats.size(); ++i) {
        const Beat& b = spec.beats[i];
        double t = b.at + b.over + kSettle;
        if (i + 1 < spec.beats.size()) t = std::min(t, spec.beats[i + 1].at - 1.0 / fps);
        out.push_back(std::max(std::min(chapter_frame(b.at, frames, fps), last),
                               std::clamp(frame_count(t, fps), 0, last)));
    }
    return out;
}

}  // namespace

std::vector<engine::Config> chapter_states(const ChapterSpec& spec) {
    std::vector<engine::Config> states{spec.config};
    for (const Beat& beat : spec.beats) {
        if (beat.set.empty()) continue;
        engine::Config next = states.back();
        for (const Setting& s : beat.set)
            if (auto err = apply_setting(next, s.key, s.value))
                throw std::logic_error("unvalidated setting reached the timeline: " + *err);
        states.push_back(next);
    }
    return states;
}

Timeline::Timeline(const ChapterSpec& spec, int fps)
    : fps_(fps),
      states_(chapter_states(spec)),
      starts_{0},
      overs_{0},
      rests_(rest_frames(spec, fps)),
      cues_(chapter_cues(spec, fps)) {
    for (const Beat& beat : spec.beats) {
        if (beat.set.empty()) continue;
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

double Timeline::seconds(int frame) const { return time_of_frame(frame, fps_); }

const Cue* Timeline::cue_at(double t) const { return story::cue_at(cues_, frame_at(t, fps_)); }

}  // namespace story
