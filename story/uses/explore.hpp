// An article page's figures (`shardreel page`): the moment each chapter's figure shows, the
// configuration on screen then, and, for a chapter that explores, one chapter per combination of
// its `explore:` values, each value held from where the exploring starts.
#pragma once
#include <cstddef>
#include <vector>

#include "engine/config.hpp"
#include "story/storyboard/storyboard.hpp"

namespace story {

// The one of the chapter's `frames` frames its figure shows (beats timed): at `figure:` if given
// (end: the last frame), else at the end of the exploring beat's morph, else the last frame.
int figure_frame(const ChapterSpec& spec, int frames, int fps);

// The configuration on screen at t (a frame's time at fps): every `set:` past the halfway of its
// morph by then, applied in full (Timeline::state_at), as the frame's figures show it.
engine::Config config_at(const ChapterSpec& spec, double t, int fps);

// The words of the caption on the frame on screen at t (story/time/cue.hpp), or of the last one
// shown before it (a voiced line's caption ends before its chapter does), or the chapter's title.
std::string words_at(const ChapterSpec& spec, double t, int fps);

struct Variant {
    std::vector<std::size_t> index;  // into each ExploreParam's values
    std::vector<Setting> settings;   // the explored parameters' values
    ChapterSpec spec;                // the chapter holding them
};

// Every combination of the chapter's explore: values, the first parameter varying slowest. On
// the chapter, each value replaces the chapter's own from its start (every beat's `set:` of that
// parameter dropped); on a beat, it is that beat's `set:` of it and later beats' are dropped.
std::vector<Variant> explore_variants(const ChapterSpec& spec);

// The combination the chapter as written shows at t: for each parameter, its value then if
// listed, else its first value.
std::vector<std::size_t> written_variant(const ChapterSpec& spec, double t, int fps);

}  // namespace story
