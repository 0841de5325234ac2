// Quality presets and video overrides; see video_options.hpp.
#include "render/inputs/video_options.hpp"

#include <algorithm>

#include "story/storyboard/limits.hpp"
#include "story/storyboard/units.hpp"

namespace render {

std::optional<std::string> resolve_video(const story::Video& authored, const VideoOverrides& o,
                                         story::Video& out) {
    out = authored;
    struct Preset {
        const char* name;
        int w, h, fps;
    };
    static constexpr Preset presets[] = {{"low", 854, 480, 15},
                                         {"medium", 1280, 720, 30},
                                         {"high", 1920, 1080, 30},
                                         {"4k", 3840, 2160, 30}};
    if (!o.quality.empty()) {
        const Preset* found = nullptr;
        for (const Preset& p : presets)
            if (o.quality == p.name) found = &p;
        if (!found) return "unknown quality '" + o.quality + "' (expected low, medium, high or 4k)";
        out.width = found->w, out.height = found->h, out.fps = found->fps;
    }
    if (!o.size.empty()) {
        const auto size = story::parse_frame_size(o.size);
        if (!size)
            return "cannot parse size '" + o.size +
                   "' (expected WxH, e.g. 1280x720, up to 7680x4320)";
        if (auto error = story::limits::frame_size_error(*size, o.size)) return *error;
        out.width = size->width, out.height = size->height;
    }
    if (o.fps != 0) {
        if (o.fps < 1 || o.fps > story::limits::kMaxFps)
            return "fps must be between 1 and 120, got " + std::to_string(o.fps);
        out.fps = o.fps;
    }
    if (!o.captions.empty()) {
        const auto& modes = story::limits::kCaptionModes;
        const auto it = std::ranges::find(modes, o.captions);
        if (it == std::end(modes))
            return "unknown caption mode '" + o.captions + "' (expected burn, track or off)";
        out.captions = static_cast<story::Captions>(it - std::begin(modes));
    }
    if (out.width % 2 || out.height % 2)
        return "video size " + std::to_string(out.width) + "x" + std::to_string(out.height) +
               " must have even width and height for H.264 4:2:0";
    return std::nullopt;
}

}  // namespace render
