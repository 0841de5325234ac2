// GifSink: see gif_sink.hpp. The output file is only created in finish(), through EncodedStream.
#include "render/sinks/video/gif_sink.hpp"

#include <cmath>
#include <cstring>

#include "render/draw/raster.hpp"
#include "render/sinks/video/encoded_stream.hpp"
#include "render/sinks/video/palette.hpp"
#include "render/sys/cancel.hpp"
#include "render/sys/error.hpp"

namespace render {
namespace {

constexpr int centiseconds = 100;
constexpr int min_delay = 2;  // centiseconds; browsers play shorter delays as 10

StreamSetup gif_setup(const OutputSpec& spec) {
    return stream_setup("gif", "gif", spec, AV_PIX_FMT_PAL8, AVRational{1, centiseconds});
}

// Evenly spaced frames, first and last included.
std::vector<std::size_t> sample_indices(std::size_t frames, std::size_t samples) {
    std::vector<std::size_t> out;
    if (frames == 0) return out;
    const std::size_t n = std::min(frames, samples);
    for (std::size_t k = 0; k < n; ++k) out.push_back(n == 1 ? 0 : k * (frames - 1) / (n - 1));
    return out;
}

std::vector<std::uint32_t> film_palette(const std::vector<story::Scene>& scenes, const Fonts& fonts,
                                        Frame& frame) {
    ColorHistogram histogram;
    for (std::size_t i : sample_indices(scenes.size(), GifSink::palette_samples)) {
        rasterize(scenes[i], fonts, frame);
        add_to_histogram(frame, histogram);
    }
    return median_cut(histogram);
}

// The palette in data[1] as libav's opaque ARGB, unused entries black.
void set_palette(AVFrame* picture, const std::vector<std::uint32_t>& palette) {
    std::uint32_t argb[256] = {};
    for (std::size_t i = 0; i < palette.size(); ++i) argb[i] = 0xFF000000u | palette[i];
    std::memcpy(picture->data[1], argb, sizeof argb);
}

}  // namespace

std::vector<GifFrame> gif_timing(int frames, int fps) {
    std::vector<GifFrame> kept;
    for (int f = 0; f < frames; ++f) {
        const int start =
            static_cast<int>(std::lround(static_cast<double>(f) * centiseconds / fps));
        if (kept.empty() || start - kept.back().start >= min_delay) kept.push_back({f, start});
    }
    return kept;
}

struct GifSink::Film {
    const Fonts& fonts;
    OutputSpec spec;
    std::vector<story::Scene> scenes;

    void finish() {
        Frame frame{spec.width, spec.height, 0, {}};
        PaletteMapper mapper(film_palette(scenes, fonts, frame));
        EncodedStream stream(spec.path, gif_setup(spec));
        AvFramePtr picture = stream.make_picture();
        for (const GifFrame& kept : gif_timing(static_cast<int>(scenes.size()), spec.fps)) {
            if (spec.cancel) spec.cancel->check();
            rasterize(scenes[kept.index], fonts, frame);
            av_check(av_frame_make_writable(picture.get()), "cannot reuse the GIF frame");
            mapper.map(frame, picture->data[0], picture->linesize[0]);
            set_palette(picture.get(), mapper.palette());
            picture->pts = kept.start;
            stream.send(picture.get());
        }
        stream.finish();
    }
};

GifSink::GifSink(const Fonts& fonts) : fonts_(fonts), film_("GifSink") {}

GifSink::~GifSink() = default;

void GifSink::begin(const OutputSpec& spec) {
    abort();
    if (spec.width <= 0 || spec.height <= 0 || spec.width > 65535 || spec.height > 65535 ||
        spec.fps <= 0)
        throw SystemError("cannot write a GIF of " + std::to_string(spec.width) + "x" +
                          std::to_string(spec.height) + "@" + std::to_string(spec.fps));
    film_.open(Film{fonts_, spec, {}});
}

void GifSink::write(const story::Scene& scene) { film_.get("write").scenes.push_back(scene); }

void GifSink::finish() { film_.finish(); }

void GifSink::abort() noexcept { film_.abort(); }

}  // namespace render
