// A caption cue: a beat's `say:` on the clock of story/storyboard/time.hpp. Frames are canonical
// and seconds derived (t = f / fps, as story/time/film_time.hpp's map does), so the caption burned
// into a frame, the caption files, the contact sheet and the studio show the same line on the same
// frames.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "story/storyboard/storyboard.hpp"

namespace story {

// Shown on frames [start, end): a chapter's own frames in Timeline::cues, the film's in
// FilmTime::cues. chapter is the chapter's index in the film (0 in a chapter's Timeline).
struct Cue {
    std::size_t chapter = 0, beat = 0;
    int start = 0, end = 0;
    std::string text;
    bool operator==(const Cue&) const = default;
};

// When beat i's caption ends, in seconds from its chapter's start (beats timed): at the next beat
// or the chapter's end; where a voice speaks, 0.5 s after its speech instead, cut at the next
// line or the chapter's end.
double caption_end(const ChapterSpec& spec, std::size_t i);

// The chapter's cues on its own frames, in order: each `say:` from its beat's frame to
// caption_end's (nearest frames, at most the chapter's length). A cue shorter than a frame is not
// a cue.
std::vector<Cue> chapter_cues(const ChapterSpec& spec, int fps);

// The last cue of `cues` (in order, none overlapping) begun by `frame`, shown on it or not, or
// nullptr.
const Cue* cue_begun(const std::vector<Cue>& cues, int frame);
// The cue shown on `frame`, or nullptr.
const Cue* cue_at(const std::vector<Cue>& cues, int frame);

}  // namespace story
