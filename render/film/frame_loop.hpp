// The one frame loop: a chapter's frames, t = f / fps, into an open sink, counted for progress.
#pragma once
#include <functional>
#include <mutex>
#include <string>

#include "render/film/film_job.hpp"
#include "render/sinks/sink.hpp"
#include "render/sys/cancel.hpp"
#include "story/chapter/chapter.hpp"

namespace render {

// Counts frames drawn by any worker and reports them one at a time.
class FrameCounter {
  public:
    FrameCounter(long long total, const std::function<void(const Progress&)>& on_progress);
    void tick(const std::string& chapter);

  private:
    std::mutex mutex_;
    Progress progress_;
    const std::function<void(const Progress&)>& on_progress_;
};

// Draws a chapter's `frames` frames into an open sink; before each, cancel.check() throws
// Interrupted once a signal or a failing worker tripped the token.
void draw_frames(FrameSink& sink, const story::Chapter& chapter, const std::string& id, int frames,
                 int fps, FrameCounter& counter, const CancelToken& cancel);

}  // namespace render
