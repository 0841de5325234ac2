// The film's clock: where every chapter, beat and caption cue of a storyboard falls, in frames of
// the whole film. Frames are canonical and seconds derived (t = f / fps, never accumulated), so
// caption files, chapter markers, contact sheets, frame loops and progress agree to the frame.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "story/storyboard/storyboard.hpp"
#include "story/time/cue.hpp"

namespace story {

struct BeatTime {
    int frame = 0;       // chapter frame of the beat's `at` (nearest, at most the chapter's length)
    int film_frame = 0;  // the same frame counted from the film's start
};

struct ChapterTime {
    int start = 0;                              // film frame of the chapter's first frame
    int frames = 0;                             // the chapter's length
    std::vector<BeatTime> beats;                // one per beat, in order
    int end() const { return start + frames; }  // film frame just after the chapter
};

struct BeatRef {
    std::size_t chapter = 0, beat = 0;
    bool operator==(const BeatRef&) const = default;
};

class FilmTime {
  public:
    FilmTime(const std::vector<ChapterSpec>& chapters, int fps);

    int fps() const { return fps_; }
    int frames() const { return frames_; }  // the whole film's
    double seconds(int frame) const;        // of a film or chapter frame: frame / fps
    int frame_at(double seconds) const;     // the frame on screen then: last f with seconds(f) <= t
    const std::vector<ChapterTime>& chapters() const { return chapters_; }
    const ChapterTime& chapter(std::size_t i) const { return chapters_[i]; }
    const std::vector<Cue>& cues() const { return cues_; }  // on film frames, in order

    // What is on screen at a film frame; nothing outside [0, frames()).
    std::optional<std::size_t> chapter_at(int film_frame) const;
    std::optional<BeatRef> beat_at(int film_frame) const;  // its chapter's latest beat begun
    const Cue* cue_at(int film_frame) const { return story::cue_at(cues_, film_frame); }

  private:
    int fps_ = 0, frames_ = 0;
    std::vector<ChapterTime> chapters_;
    std::vector<Cue> cues_;
};

}  // namespace story
