// Figures through the cache; see stills.hpp.
#include "render/page/stills.hpp"

#include <filesystem>

#include "render/drawing_digest.hpp"  // generated at build time
#include "render/film/digest.hpp"
#include "render/sinks/still.hpp"
#include "render/sys/error.hpp"
#include "render/sys/files.hpp"
#include "render/sys/hash.hpp"
#include "story/chapter/chapter.hpp"

namespace render {

FigureSvgs FigureCache::figure(const story::ChapterSpec& spec, story::Video video, double t) {
    story::Video light = video;
    video.theme = story::ThemeName::dark;
    light.theme = story::ThemeName::light;
    const story::Scene dark_scene = story::make_chapter(spec, video, fonts_)->scene_at(t);
    const story::Scene light_scene = story::make_chapter(spec, light, fonts_)->scene_at(t);
    SceneDigest digest;
    digest.add(dark_scene);
    digest.add(light_scene);
    const std::string key = xxh3_hex(digest.hex() + " " + std::to_string(video.width) + "x" +
                                     std::to_string(video.height) + " " + SHARDREEL_DRAWING_DIGEST);
    const std::string dark_path = dir_ + "/" + key + ".dark.svg",
                      light_path = dir_ + "/" + key + ".light.svg";
    std::string error;
    auto dark = read_file(dark_path, error), light_svg = read_file(light_path, error);
    if (dark && light_svg) {
        ++reused_;
        return {std::move(*dark), std::move(*light_svg)};
    }
    write_still(dark_scene, video, dark_path, fonts_);
    write_still(light_scene, light, light_path, fonts_);
    ++drawn_;
    dark = read_file(dark_path, error);
    light_svg = read_file(light_path, error);
    if (!dark || !light_svg) throw SystemError("cannot read back " + dark_path + ": " + error);
    return {std::move(*dark), std::move(*light_svg)};
}

}  // namespace render
