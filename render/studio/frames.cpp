// The studio's pictures; see frames.hpp.
#include "render/studio/frames.hpp"

#include "render/sinks/still.hpp"

namespace render {

std::string FrameDrawer::png(const std::shared_ptr<const StudioFilm>& film, const story::Moment& at,
                             int width, int height) {
    const std::lock_guard lock(mutex_);
    if (film != film_) {
        chapters_.clear();
        film_ = film;
    }
    story::Video video = film->video;
    video.width = width;
    video.height = height;
    auto& chapter = chapters_[{at.chapter, width, height}];
    if (!chapter) chapter = story::make_chapter(film->board.chapters[at.chapter], video, fonts_);
    return scene_png(chapter->scene_at(at.t), video, fonts_);
}

}  // namespace render
