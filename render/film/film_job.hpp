// A film to render and what rendering it reports: the types the director, its parts and the
// commands share.
#pragma once
#include <string>
#include <vector>

#include "story/storyboard.hpp"

namespace render {

// One storyboard to render: its chapters already selected, its video resolved.
struct FilmJob {
    story::Storyboard board;
    story::Video video;
    std::string output;
};

struct ChapterReport {
    std::string id;
    bool cached = false;  // no frame drawn: found in the cache (or drawn for another film)
    int frames = 0;
    double seconds = 0;
};
struct RenderReport {
    std::string output;  // empty with segment_only
    long long frames_drawn = 0;
    double wall_seconds = 0;
    std::vector<ChapterReport> chapters;
};

struct Progress {
    std::string chapter;
    long long done = 0, total = 0;
};

}  // namespace render
