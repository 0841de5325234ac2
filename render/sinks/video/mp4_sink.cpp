// Encodes Cairo ARGB32 frames to H.264 (libx264) in an MP4 written through a temporary file:
// swscale converts to BT.709 limited-range yuv420p (make_yuv420p_converter), pts is the frame
// index at time base 1/fps; drawing and encoding run on separate threads.
#include "render/sinks/video/mp4_sink.hpp"

#include <atomic>
#include <cstdint>
#include <exception>
#include <new>
#include <optional>
#include <thread>
#include <vector>

#include "render/av/av.hpp"
#include "render/sinks/video/encoded_stream.hpp"
#include "render/sys/bounded_queue.hpp"
#include "render/sys/error.hpp"

namespace render {
namespace {

// libx264 through EncodedStream: BT.709 yuv420p, a keyframe every gop_seconds, +faststart.
StreamSetup x264_setup(const OutputSpec& spec, const EncoderSettings& settings) {
    check_yuv420p(spec);
    StreamSetup setup =
        stream_setup("mp4", "libx264", spec, AV_PIX_FMT_YUV420P, AVRational{1, spec.fps});
    setup.threads = settings.threads;
    setup.bt709 = true;
    setup.options = {{"preset", settings.preset},
                     {"crf", std::to_string(settings.crf)},
                     {"rc-lookahead", std::to_string(settings.rc_lookahead)},
                     {"g", std::to_string(settings.gop_seconds * spec.fps)}};
    if (!settings.tune.empty()) setup.options.emplace_back("tune", settings.tune);
    setup.muxer_options = kMp4Options;
    setup.unit_duration = true;  // the last sample's length
    return setup;
}

// Pictures in circulation (converted, queued, or held by the encoder): bounds the pipeline.
constexpr std::size_t kPictures = 4;

}  // namespace

std::string to_string(const EncoderSettings& s) {
    return "preset=" + s.preset + " crf=" + std::to_string(s.crf) + " tune=" + s.tune +
           " threads=" + std::to_string(s.threads) +
           " gop_seconds=" + std::to_string(s.gop_seconds) +
           " rc_lookahead=" + std::to_string(s.rc_lookahead);
}

// Drawing and colour conversion on the caller's thread, encoding and muxing on a thread of its
// own (x264 adds its fixed worker threads), joined by a bounded queue of pooled pictures: the
// stages overlap, nothing is allocated per frame, and memory does not grow with the film.
struct Mp4Sink::Pipeline {
    OutputSpec spec;
    EncodedStream stream;
    std::int64_t next_pts = 0;  // the frame index, used by the encoding thread only
    SwsPtr sws;
    std::vector<AvFramePtr> pictures;
    BoundedQueue<AVFrame*> free_pictures{kPictures};
    BoundedQueue<AVFrame*> queued{kPictures};  // nullptr: the previous picture again
    std::atomic<bool> stopping{false};
    std::exception_ptr error;  // the encoding thread's failure, read after joining it
    std::thread thread;        // started last, once everything it uses exists

    Pipeline(const OutputSpec& s, const EncoderSettings& settings)
        : spec(s),
          stream(s.path, x264_setup(s, settings)),
          sws(make_yuv420p_converter(s.width, s.height)) {
        for (std::size_t i = 0; i < kPictures; ++i) {
            pictures.push_back(stream.make_picture());
            free_pictures.push(pictures.back().get());
        }
        thread = std::thread([this] { run(); });
    }

    ~Pipeline() { stop(); }

    // BT.709 conversion into a free picture, then onto the queue (waits while the encoder is
    // behind).
    void convert(const Frame& frame) {
        const std::optional<AVFrame*> picture = free_pictures.pop();
        if (!picture) rethrow_failure();
        av_check(av_frame_make_writable(*picture), "cannot reuse a yuv420p frame");
        const std::uint8_t* planes[1] = {frame.data.data()};
        const int strides[1] = {frame.stride};
        sws_scale(sws.get(), planes, strides, 0, frame.height, (*picture)->data,
                  (*picture)->linesize);
        if (!queued.push(*picture)) rethrow_failure();
    }

    // The previous frame again: nothing drawn, nothing converted.
    void repeat() {
        if (!queued.push(nullptr)) rethrow_failure();
    }

    void finish() {
        queued.close();
        thread.join();
        if (error) std::rethrow_exception(error);
        stream.finish();
    }

    void stop() noexcept {
        stopping = true;
        queued.close();
        free_pictures.close();
        if (thread.joinable()) thread.join();
    }

    [[noreturn]] void rethrow_failure() {
        stop();
        if (error) std::rethrow_exception(error);
        throw SystemError("the video encoder stopped");
    }

    void run() noexcept {
        AVFrame* held = nullptr;  // the picture last sent, kept for repeats
        try {
            while (const std::optional<AVFrame*> next = queued.pop()) {
                if (stopping) return;
                if (*next) {
                    if (held) free_pictures.push(held);
                    held = *next;
                }
                held->pts = next_pts++;
                stream.send(held);
            }
        } catch (...) {
            error = std::current_exception();
            queued.close();
            free_pictures.close();
        }
    }
};

Mp4Sink::Mp4Sink(const Fonts& fonts, EncoderSettings settings)
    : fonts_(fonts), settings_(std::move(settings)), pipeline_("Mp4Sink") {}

Mp4Sink::~Mp4Sink() { abort(); }

void Mp4Sink::begin(const OutputSpec& spec) {
    pipeline_.open(spec, settings_);
    raster_.emplace(fonts_, spec.width, spec.height);
}

void Mp4Sink::write(const story::Scene& scene) {
    Pipeline& pipeline = pipeline_.get("write");
    if (raster_->draw(scene)) {
        pipeline.convert(raster_->frame());
    } else {
        pipeline.repeat();
    }
}

void Mp4Sink::write_frame(const Frame& frame) {
    Pipeline& pipeline = pipeline_.get("write_frame");
    const OutputSpec& spec = pipeline.spec;
    if (frame.width != spec.width || frame.height != spec.height) {
        throw SystemError("frame is " + std::to_string(frame.width) + "x" +
                          std::to_string(frame.height) + ", the video " +
                          std::to_string(spec.width) + "x" + std::to_string(spec.height));
    }
    pipeline.convert(frame);
}

void Mp4Sink::finish() { pipeline_.finish(); }

void Mp4Sink::abort() noexcept { pipeline_.abort(); }

}  // namespace render
