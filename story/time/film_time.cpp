// The film time map; see film_time.hpp.
#include "story/time/film_time.hpp"

#include <algorithm>
#include <cmath>

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

FilmTime::FilmTime(const std::vector<ChapterSpec>& chapters, int fps) : fps_(fps) {
    for (std::size_t c = 0; c < chapters.size(); ++c) {
        const ChapterSpec& spec = chapters[c];
        ChapterTime& chapter =
            chapters_.emplace_back(ChapterTime{frames_, frame_count(spec.duration, fps), {}});
        for (const Beat& b : spec.beats) {
            const int frame = std::min(chapter.frames, frame_count(b.at, fps));
            chapter.beats.push_back({frame, chapter.start + frame});
        }
        for (std::size_t i = 0; i < spec.beats.size(); ++i) {
            const int end =
                chapter.start + std::min(chapter.frames, frame_count(caption_end(spec, i), fps));
            if (!spec.beats[i].say.empty() && end > chapter.beats[i].film_frame)
                cues_.push_back({c, i, chapter.beats[i].film_frame, end, spec.beats[i].say});
        }
        frames_ = chapter.end();
    }
}

double FilmTime::seconds(int frame) const { return time_of_frame(frame, fps_); }

int FilmTime::frame_at(double t) const {
    // floor(t * fps) can land one off either way in floating point; seconds(f) decides.
    int f = static_cast<int>(std::floor(t * fps_));
    if (seconds(f + 1) <= t) return f + 1;
    if (seconds(f) > t) return f - 1;
    return f;
}

std::optional<std::size_t> FilmTime::chapter_at(int film_frame) const {
    if (film_frame < 0 || film_frame >= frames_) return std::nullopt;
    // The last chapter starting at or before the frame holds it (an empty one never is last).
    const auto after = std::upper_bound(chapters_.begin(), chapters_.end(), film_frame,
                                        [](int f, const ChapterTime& c) { return f < c.start; });
    return static_cast<std::size_t>(after - chapters_.begin() - 1);
}

std::optional<BeatRef> FilmTime::beat_at(int film_frame) const {
    const auto chapter = chapter_at(film_frame);
    if (!chapter) return std::nullopt;
    const std::vector<BeatTime>& beats = chapters_[*chapter].beats;
    const auto after = std::upper_bound(beats.begin(), beats.end(), film_frame,
                                        [](int f, const BeatTime& b) { return f < b.film_frame; });
    if (after == beats.begin()) return std::nullopt;
    return BeatRef{*chapter, static_cast<std::size_t>(after - beats.begin() - 1)};
}

const CueTime* FilmTime::cue_at(int film_frame) const {
    const auto after = std::upper_bound(cues_.begin(), cues_.end(), film_frame,
                                        [](int f, const CueTime& c) { return f < c.start; });
    if (after == cues_.begin() || film_frame >= std::prev(after)->end) return nullptr;
    return &*std::prev(after);
}

}  // namespace story
