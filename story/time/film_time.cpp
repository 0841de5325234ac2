// The film time map; see film_time.hpp.
#include "story/time/film_time.hpp"

#include <algorithm>

#include "story/storyboard/time.hpp"

namespace story {

FilmTime::FilmTime(const std::vector<ChapterSpec>& chapters, int fps) : fps_(fps) {
    for (std::size_t c = 0; c < chapters.size(); ++c) {
        const ChapterSpec& spec = chapters[c];
        ChapterTime& chapter =
            chapters_.emplace_back(ChapterTime{frames_, frame_count(spec.duration, fps), {}});
        for (const Beat& b : spec.beats) {
            const int frame = chapter_frame(b.at, chapter.frames, fps);
            chapter.beats.push_back({frame, chapter.start + frame});
        }
        for (Cue cue : chapter_cues(spec, fps)) {
            cue.chapter = c;
            cue.start += chapter.start;
            cue.end += chapter.start;
            cues_.push_back(std::move(cue));
        }
        frames_ = chapter.end();
    }
}

double FilmTime::seconds(int frame) const { return time_of_frame(frame, fps_); }

int FilmTime::frame_at(double t) const { return story::frame_at(t, fps_); }

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

}  // namespace story
