// The frame loop and its progress counter; see frame_loop.hpp.
#include "render/film/frame_loop.hpp"

#include "story/storyboard/time.hpp"

namespace render {

FrameCounter::FrameCounter(long long total, const std::function<void(const Progress&)>& on_progress)
    : on_progress_(on_progress) {
    progress_.total = total;
}

void FrameCounter::tick(const std::string& chapter) {
    const std::lock_guard lock(mutex_);
    progress_.chapter = chapter;
    ++progress_.done;
    if (on_progress_) on_progress_(progress_);
}

void draw_frames(FrameSink& sink, const story::Chapter& chapter, const std::string& id, int frames,
                 int fps, FrameCounter& counter, const CancelToken& cancel) {
    for (int f = 0; f < frames; ++f) {
        cancel.check();
        sink.write(chapter.scene_at(story::time_of_frame(f, fps)));
        counter.tick(id);
    }
}

}  // namespace render
