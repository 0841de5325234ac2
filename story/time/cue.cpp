// Caption cues; see cue.hpp.
#include "story/time/cue.hpp"

#include <algorithm>

#include "story/storyboard/time.hpp"

namespace story {

namespace {

constexpr double kCaptionLinger = 0.5;  // seconds a voiced caption stays after its speech

}  // namespace

double caption_end(const ChapterSpec& spec, std::size_t i) {
    const std::vector<Beat>& beats = spec.beats;
    const Beat& beat = beats[i];
    if (spec.narration.engine == VoiceEngine::off || !beat.speech) {
        return i + 1 < beats.size() ? beats[i + 1].at : spec.duration;
    }
    double end = std::min(beat.at + beat.speech->seconds + kCaptionLinger, spec.duration);
    for (std::size_t j = i + 1; j < beats.size(); ++j)
        if (!beats[j].say.empty()) return std::min(end, beats[j].at);
    return end;
}

std::vector<Cue> chapter_cues(const ChapterSpec& spec, int fps) {
    const int frames = frame_count(spec.duration, fps);
    const auto frame = [&](double t) { return chapter_frame(t, frames, fps); };
    std::vector<Cue> out;
    for (std::size_t i = 0; i < spec.beats.size(); ++i) {
        const Beat& b = spec.beats[i];
        const int start = frame(b.at), end = frame(caption_end(spec, i));
        if (!b.say.empty() && end > start) out.push_back({0, i, start, end, b.say});
    }
    return out;
}

const Cue* cue_begun(const std::vector<Cue>& cues, int frame) {
    const auto after = std::upper_bound(cues.begin(), cues.end(), frame,
                                        [](int f, const Cue& c) { return f < c.start; });
    return after == cues.begin() ? nullptr : &*std::prev(after);
}

const Cue* cue_at(const std::vector<Cue>& cues, int frame) {
    const Cue* cue = cue_begun(cues, frame);
    return cue && frame < cue->end ? cue : nullptr;
}

}  // namespace story
