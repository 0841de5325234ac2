// The video sinks by extension, then the stills'; see make_sink.hpp.
#include "render/sinks/video/make_sink.hpp"

#include "render/sinks/video/gif_sink.hpp"
#include "render/sinks/video/mp4_sink.hpp"
#include "render/sinks/video/webm_sink.hpp"
#include "render/sys/error.hpp"

namespace render {

std::unique_ptr<FrameSink> make_sink(const std::string& path, const Fonts& fonts,
                                     const FilmAudio* sound) {
    const std::string ext = lowercase_extension(path);
    if (ext == ".mp4") return std::make_unique<Mp4Sink>(fonts);
    if (ext == ".webm") return std::make_unique<WebmSink>(fonts, Vp9Settings{}, sound);
    if (ext == ".gif") return std::make_unique<GifSink>(fonts);
    if (auto still = make_still_sink(path, fonts)) return still;
    throw SystemError("unsupported output " + path +
                      ": use .mp4, .webm, .gif, .png, a PNG sequence such as frames/%05d.png, .svg "
                      "or .pdf");
}

}  // namespace render
