// A film to render and what rendering it reports: the types the director, its parts and the
// commands share.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "render/sound/audio_mix.hpp"
#include "render/sound/loudness.hpp"
#include "story/storyboard/storyboard.hpp"

namespace render {

// One storyboard to render: its chapters already selected, its video resolved.
struct FilmJob {
    story::Storyboard board;
    story::Video video;
    std::string output;
    std::optional<FilmAudio> sound;  // on the video's clock; none: a silent film
    // `--captions all`: the storyboard in each other language it lists (parsed, not timed), whose
    // lines caption the film at its own beats; empty: the film's own language alone.
    std::vector<story::Storyboard> caption_languages;
};

struct ChapterReport {
    std::string id;
    bool cached = false;  // no frame drawn: found in the cache (or drawn for another film)
    int frames = 0;
    double seconds = 0;
    std::optional<bool> sound_cached;  // its sound segment: found in the cache (or encoded for
                                       // another film); none without one
};
struct RenderReport {
    std::string output;  // empty with segment_only
    long long frames_drawn = 0;
    double wall_seconds = 0;
    std::vector<ChapterReport> chapters;
    std::optional<Loudness> sound;  // the output's sound measured, when asked and it has one
};

struct Progress {
    std::string chapter;
    long long done = 0, total = 0;
};

}  // namespace render
