// libFuzzer target: storyboards that validate are drawn as `still` would draw them (every chapter
// at a few times, 320x180, the shipped fonts) into an in-memory raster frame.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/exercise.hpp"
#include "render/draw/fonts.hpp"
#include "render/draw/raster.hpp"
#include "story/load.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const render::Fonts fonts(render::default_font_dir());
    story::Diagnostics diags;
    const auto board = story::parse_storyboard(
        std::string(reinterpret_cast<const char*>(data), size), "fuzz.yaml", diags);
    if (!board) return 0;
    story::Video video = board->video;
    video.width = 320;
    video.height = 180;
    render::Frame frame{video.width, video.height};
    fuzz::exercise(*board, video, fonts,
                   [&](const story::Scene& scene) { render::rasterize(scene, fonts, frame); });
    return 0;
}
