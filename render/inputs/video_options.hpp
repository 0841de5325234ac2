// The video a command renders: the storyboard's, or a quality preset (following Manim) with
// --size and --fps overriding it, and how it captions.
#pragma once
#include <optional>
#include <string>

#include "story/storyboard/storyboard.hpp"

namespace render {

struct VideoOverrides {
    std::string quality;  // "", low, medium, high, 4k
    std::string size;     // "", WxH
    int fps = 0;          // 0: not given
    // "", burn, track or off: the storyboard's `video: captions` (render --captions-as; the page
    // and the jobs of its film give track).
    std::string captions;
};

// Returns the resolved video, or an error message for a bad preset/size/fps.
std::optional<std::string> resolve_video(const story::Video& authored, const VideoOverrides& o,
                                         story::Video& out);

}  // namespace render
