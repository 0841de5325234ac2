// An article page's figures (`shardreel page`): the moment each chapter's figure shows, the
// configuration on screen then, and, for a chapter that explores, one chapter per combination of
// its `explore:` values, each value held from where the exploring starts.
#pragma once
#include <cstddef>
#include <vector>

#include "engine/config.hpp"
#include "story/storyboard/storyboard.hpp"

namespace story {

// Seconds from the chapter's start, on one of its `frames` frames (beats timed): `figure:` if
// given (end: the last frame), else the end of the exploring beat's morph, else the last frame.
double figure_time(const ChapterSpec& spec, int frames, int fps);

// The configuration on screen at t: every `set:` begun by then, applied in full.
engine::Config config_at(const ChapterSpec& spec, double t);

// The caption on screen at t (the latest beat begun with a `say:`), or the chapter's title.
std::string words_at(const ChapterSpec& spec, double t);

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
std::vector<std::size_t> written_variant(const ChapterSpec& spec, double t);

}  // namespace story
