// Rasterises each scene, converts it to BT.709 yuv420p and encodes it with libvpx-vp9 into a
// WebM written through a temporary file; pts is the frame index at time base 1/fps.
#include "render/av/webm_sink.hpp"

#include "render/av/encoded_stream.hpp"
#include "render/sys/error.hpp"

namespace render {
namespace {

StreamSetup vp9_setup(const OutputSpec& spec, const Vp9Settings& s) {
    check_yuv420p(spec);
    StreamSetup setup =
        stream_setup("webm", "libvpx-vp9", spec, AV_PIX_FMT_YUV420P, AVRational{1, spec.fps});
    setup.threads = s.threads;
    setup.bit_rate = 0;  // with crf: constant quality, no bitrate target
    setup.bt709 = true;
    setup.options = {{"crf", std::to_string(s.crf)},
                     {"deadline", "good"},
                     {"cpu-used", std::to_string(s.cpu_used)},
                     {"g", std::to_string(s.gop_seconds * spec.fps)},
                     {"row-mt", "0"}};
    return setup;
}

}  // namespace

struct WebmSink::Encoder {
    EncodedStream stream;
    SwsPtr sws;
    AvFramePtr yuv;
    std::int64_t next_pts = 0;

    Encoder(const OutputSpec& spec, const Vp9Settings& settings)
        : stream(spec.path, vp9_setup(spec, settings)),
          sws(make_yuv420p_converter(spec.width, spec.height)),
          yuv(stream.make_picture()) {}

    void encode(const Frame& frame) {
        // The encoder may still hold the previous buffer as a reference.
        av_check(av_frame_make_writable(yuv.get()), "cannot reuse the yuv420p frame");
        const std::uint8_t* planes[1] = {frame.data.data()};
        const int strides[1] = {frame.stride};
        sws_scale(sws.get(), planes, strides, 0, frame.height, yuv->data, yuv->linesize);
        yuv->pts = next_pts++;
        stream.send(yuv.get());
    }
};

WebmSink::WebmSink(const Fonts& fonts, Vp9Settings settings) : fonts_(fonts), settings_(settings) {}

WebmSink::~WebmSink() { abort(); }

void WebmSink::begin(const OutputSpec& spec) {
    abort();
    encoder_ = std::make_unique<Encoder>(spec, settings_);
    frame_.width = spec.width;
    frame_.height = spec.height;
}

void WebmSink::write(const story::Scene& scene) {
    if (!encoder_) throw SystemError("WebmSink::write before begin()");
    rasterize(scene, fonts_, frame_);
    encoder_->encode(frame_);
}

void WebmSink::finish() {
    if (!encoder_) throw SystemError("WebmSink::finish before begin()");
    // Whatever happens, the sink is closed afterwards; a failed finish leaves no file.
    const std::unique_ptr<Encoder> encoder = std::move(encoder_);
    encoder->stream.finish();
}

void WebmSink::abort() noexcept { encoder_.reset(); }

}  // namespace render
