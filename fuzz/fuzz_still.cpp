// libFuzzer target: storyboards that validate are drawn as `still` would draw them (every chapter
// at a few times, 320x180, the shipped fonts) into an in-memory raster frame.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/exercise.hpp"
#include "render/draw/fonts.hpp"
#include "render/draw/raster.hpp"
#include "story/load/timed.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const render::Fonts fonts(render::default_font_dir());
    story::Diagnostics diags;
    std::vector<story::Diagnostic> warnings;
    const auto board = story::load_timed(std::string(reinterpret_cast<const char*>(data), size),
                                         "fuzz.yaml", diags, warnings);
    if (!board) return 0;
    story::Video video = board->video;
    video.width = 320;
    video.height = 180;
    render::Frame frame{video.width, video.height};
    fuzz::exercise(*board, video, fonts,
                   [&](const story::Scene& scene) { render::rasterize(scene, fonts, frame); });
    return 0;
}
