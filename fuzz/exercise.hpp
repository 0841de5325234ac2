// What the fuzz targets and their regression test do with a storyboard that validates: build each
// chapter and take its display list at a few times, as `still` and `render` would.
#pragma once
#include <algorithm>
#include <functional>
#include <vector>

#include "story/chapter/chapter.hpp"
#include "story/storyboard/time.hpp"

namespace fuzz {

// The first and last frame, a third and a half of the way, and each beat's middle (up to eight).
inline std::vector<double> sample_times(const story::ChapterSpec& spec, int fps) {
    const int last = std::max(story::frame_count(spec.duration, fps) - 1, 0);
    std::vector<double> times{0, spec.duration / 3, spec.duration / 2,
                              story::time_of_frame(last, fps)};
    for (std::size_t i = 0; i < spec.beats.size() && i < 8; ++i)
        times.push_back(std::min(spec.beats[i].at + spec.beats[i].over / 2, spec.duration));
    return times;
}

// Calls draw with every chapter's scene at its sample times.
inline void exercise(const story::Storyboard& board, const story::Video& video,
                     const story::TextMetrics& metrics,
                     const std::function<void(const story::Scene&)>& draw) {
    for (const story::ChapterSpec& spec : board.chapters) {
        const auto chapter = story::make_chapter(spec, video, metrics);
        for (double t : sample_times(spec, video.fps)) draw(chapter->scene_at(t));
    }
}

}  // namespace fuzz
