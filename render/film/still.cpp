// Stills; see still.hpp.
#include "render/film/still.hpp"

#include "render/sinks/sink.hpp"
#include "render/sys/files.hpp"
#include "story/chapter.hpp"

namespace render {

void render_still(const story::ChapterSpec& chapter, const story::Video& video, double t,
                  const std::string& output, const Fonts& fonts) {
    ensure_parent_dir(output);
    const auto scene = story::make_chapter(chapter, video, fonts)->scene_at(t);
    auto sink = make_sink(output, fonts);
    sink->begin({output, video.width, video.height, video.fps});
    try {
        sink->write(scene);
        sink->finish();
    } catch (...) {
        sink->abort();
        throw;
    }
}

}  // namespace render
