// The one orchestrator: storyboard file -> chapters -> frames -> sinks, for films and stills.
#pragma once
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "render/fonts.hpp"
#include "story/storyboard.hpp"

namespace render {

// Reads and parses a storyboard; prints every diagnostic to err and returns nullopt on failure.
std::optional<story::Storyboard> load_storyboard(const std::string& path, std::ostream& err);

// Quality presets follow Manim; --size and --fps override; otherwise the storyboard's video.
struct VideoOverrides {
    std::string quality;  // "", low, medium, high, 4k
    std::string size;     // "", WxH
    int fps = 0;          // 0: not given
};
// Returns the resolved video, or an error message for a bad preset/size/fps.
std::optional<std::string> resolve_video(const story::Video& authored, const VideoOverrides& o,
                                         story::Video& out);

struct ChapterReport {
    std::string id;
    bool cached = false;
    int frames = 0;
    double seconds = 0;
};
struct RenderReport {
    std::string output;
    long long frames_drawn = 0;
    double wall_seconds = 0;
    std::vector<ChapterReport> chapters;
};

struct Progress {
    std::string chapter;
    long long done = 0, total = 0;
};

// Renders the chapters (all of board.chapters, in order) into one video at `output`, with
// .vtt and .srt captions beside it. Throws SystemError (runtime) or Interrupted.
RenderReport render_film(const story::Storyboard& board, const story::Video& video,
                         const std::string& output, const Fonts& fonts,
                         const std::function<void(const Progress&)>& on_progress);

// One frame of one chapter at t seconds, to a PNG, SVG or PDF chosen by extension.
void render_still(const story::ChapterSpec& chapter, const story::Video& video, double t,
                  const std::string& output, const Fonts& fonts);

}  // namespace render
