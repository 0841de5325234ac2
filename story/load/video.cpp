// The video section; see video.hpp.
#include "story/load/video.hpp"

#include <algorithm>

#include "story/load/narration.hpp"
#include "story/storyboard/settings.hpp"
#include "story/storyboard/units.hpp"

namespace story::load {
namespace {

// burn, track or off; any YAML 1.1 false (`captions: off` is false to PyYAML) is off too.
std::optional<Captions> parse_captions(const std::string& value) {
    const auto& names = limits::kCaptionModes;
    if (auto it = std::ranges::find(names, value); it != std::end(names))
        return static_cast<Captions>(it - std::begin(names));
    if (parse_flag(value) == false) return Captions::off;
    return std::nullopt;
}

void frame_size(Context& ctx, const Entry& e, Video& v) {
    auto s = scalar(ctx, e);
    if (!s) return;
    auto size = parse_frame_size(*s);
    if (!size) {
        ctx.error(*e.value, "cannot parse '" + *s + "' as a frame size (expected e.g. 1920x1080)");
    } else if (auto message = limits::frame_size_error(*size, *s)) {
        ctx.error(*e.value, *message);
    } else {
        v.width = size->width;
        v.height = size->height;
    }
}

}  // namespace

Video read_video(Context& ctx, const Entries& fields) {
    Video v;
    if (const Entry* f = find(fields, "size")) frame_size(ctx, *f, v);
    if (const Entry* f = find(fields, "fps"))
        v.fps = static_cast<int>(integer(ctx, *f, limits::whole_number("fps")).value_or(v.fps));
    if (const Entry* f = find(fields, "theme"))
        keyword(ctx, *f, limits::choice("theme"), parse_theme, v.theme);
    if (const Entry* f = find(fields, "captions"))
        keyword(ctx, *f, limits::choice("captions"), parse_captions, v.captions);
    if (const Entry* f = find(fields, "narration"))
        v.narration = read_narration(ctx, *f, v.narration, v.fps);
    if (const Entry* f = find(fields, "music")) {
        v.music.file = file_name(ctx, *f).value_or("");
        v.music.pos = f->value->pos;
    }
    if (const Entry* f = find(fields, "music_level"))
        v.music.level =
            ranged(ctx, *f, limits::range("music_level"), v.fps).value_or(v.music.level);
    return v;
}

}  // namespace story::load
