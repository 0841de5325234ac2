// Stills; see still.hpp.
#include "render/sinks/still.hpp"

#include "render/sinks/sink.hpp"
#include "render/sys/error.hpp"
#include "render/sys/files.hpp"
#include "story/chapter.hpp"

namespace render {

void render_still(const story::ChapterSpec& chapter, const story::Video& video, double t,
                  const std::string& output, const Fonts& fonts) {
    write_still(story::make_chapter(chapter, video, fonts)->scene_at(t), video, output, fonts);
}

void write_still(const story::Scene& scene, const story::Video& video, const std::string& output,
                 const Fonts& fonts) {
    ensure_parent_dir(output);
    auto sink = make_still_sink(output, fonts);
    if (!sink) throw SystemError("unsupported still " + output + ": use .png, .svg or .pdf");
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
