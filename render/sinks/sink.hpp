// Where frames go: one interface for video and stills. Every sink writes to a temporary file
// in the destination directory and renames it on finish(), so no output is ever half-written.
#pragma once
#include <memory>
#include <string>

#include "render/draw/fonts.hpp"
#include "story/scene/scene.hpp"

namespace render {

class CancelToken;

struct OutputSpec {
    std::string path;
    int width = 1920, height = 1080, fps = 30;
    // Polled (check()) by a sink whose finish() runs long over the frames (GIF); null: never.
    const CancelToken* cancel = nullptr;
};

class FrameSink {
  public:
    virtual ~FrameSink() = default;
    virtual void begin(const OutputSpec& spec) = 0;
    virtual void write(const story::Scene& scene) = 0;
    virtual void finish() = 0;          // flush, then rename the temporary file to spec.path
    virtual void abort() noexcept = 0;  // remove the temporary file; safe to call any time
};

// By extension: .png, .svg, .pdf; a .png name with a frame number pattern (out/frames/%05d.png)
// is a PNG sequence. Null for anything else (videos: render/sinks/video/make_sink.hpp).
std::unique_ptr<FrameSink> make_still_sink(const std::string& path, const Fonts& fonts);
// ".PNG" -> ".png"
std::string lowercase_extension(const std::string& path);

}  // namespace render
