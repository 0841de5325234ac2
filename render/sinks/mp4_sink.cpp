// Encodes Cairo ARGB32 frames to H.264 (libx264) in an MP4 written through a temporary file:
// swscale converts to BT.709 limited-range yuv420p (make_yuv420p_converter), pts is the frame
// index at time base 1/fps; drawing and encoding run on separate threads.
#include "render/sinks/mp4_sink.hpp"

#include <atomic>
#include <cstdint>
#include <exception>
#include <new>
#include <optional>
#include <thread>
#include <vector>

#include "render/av.hpp"
#include "render/bounded_queue.hpp"
#include "render/error.hpp"
#include "render/sinks/encoded_stream.hpp"
#include "render/temp_file.hpp"

namespace render {
namespace {

CodecContextPtr open_encoder(const OutputSpec& spec, const EncoderSettings& settings,
                             bool global_header) {
    const AVCodec* codec = avcodec_find_encoder_by_name("libx264");
    if (!codec) throw SystemError("libavcodec was built without the libx264 encoder");
    check_yuv420p(spec);
    CodecContextPtr ctx(avcodec_alloc_context3(codec));
    if (!ctx) throw std::bad_alloc();
    ctx->width = spec.width;
    ctx->height = spec.height;
    ctx->pix_fmt = AV_PIX_FMT_YUV420P;
    ctx->time_base = AVRational{1, spec.fps};
    ctx->framerate = AVRational{spec.fps, 1};
    ctx->sample_aspect_ratio = AVRational{1, 1};
    ctx->gop_size = settings.gop_seconds * spec.fps;
    ctx->thread_count = settings.threads;
    ctx->flags |= AV_CODEC_FLAG_BITEXACT;
    if (global_header) ctx->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    ctx->color_primaries = AVCOL_PRI_BT709;
    ctx->color_trc = AVCOL_TRC_BT709;
    ctx->colorspace = AVCOL_SPC_BT709;
    ctx->color_range = AVCOL_RANGE_MPEG;

    AVDictionary* options = nullptr;
    av_dict_set(&options, "preset", settings.preset.c_str(), 0);
    av_dict_set(&options, "crf", std::to_string(settings.crf).c_str(), 0);
    if (!settings.tune.empty()) av_dict_set(&options, "tune", settings.tune.c_str(), 0);
    av_dict_set(&options, "rc-lookahead", std::to_string(settings.rc_lookahead).c_str(), 0);
    const int ret = avcodec_open2(ctx.get(), codec, &options);
    av_dict_free(&options);
    av_check(ret, "cannot open the libx264 encoder");
    return ctx;
}

// A yuv420p picture of the video's size, for the pool that circulates between the threads.
AvFramePtr make_picture(int width, int height) {
    AvFramePtr picture = make_frame();
    picture->format = AV_PIX_FMT_YUV420P;
    picture->width = width;
    picture->height = height;
    av_check(av_frame_get_buffer(picture.get(), 0), "cannot allocate a yuv420p frame");
    return picture;
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

// One open output file: muxer, encoder and the temporary file they write to. Used by the
// encoding thread only.
struct Mp4Sink::Encoder {
    TempFile temp;
    OutputContextPtr output;
    CodecContextPtr codec;
    AvPacketPtr packet = make_packet();
    AVStream* stream = nullptr;
    std::int64_t next_pts = 0;

    Encoder(const OutputSpec& spec, const EncoderSettings& settings)
        : temp(spec.path),
          output(open_mp4_output(temp)),
          codec(open_encoder(spec, settings, output->oformat->flags & AVFMT_GLOBALHEADER)) {
        stream = avformat_new_stream(output.get(), nullptr);
        if (!stream) throw std::bad_alloc();
        av_check(avcodec_parameters_from_context(stream->codecpar, codec.get()),
                 "cannot copy encoder parameters");
        stream->time_base = codec->time_base;
        stream->avg_frame_rate = codec->framerate;
        write_mp4_header(output.get(), temp);
    }

    void encode(AVFrame* yuv) {
        yuv->pts = next_pts++;
        av_check(avcodec_send_frame(codec.get(), yuv), "cannot encode a frame");
        drain();
    }

    void finish() {
        av_check(avcodec_send_frame(codec.get(), nullptr), "cannot flush the encoder");
        drain();
        finish_output(output, temp);
        temp.commit();
    }

    void drain() {
        for (;;) {
            const int ret = avcodec_receive_packet(codec.get(), packet.get());
            if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF) return;
            av_check(ret, "cannot encode a frame");
            if (packet->duration == 0) packet->duration = 1;  // the last sample's length
            av_packet_rescale_ts(packet.get(), codec->time_base, stream->time_base);
            packet->stream_index = stream->index;
            write_packet(output.get(), packet.get(), temp);
        }
    }
};

// Drawing and colour conversion on the caller's thread, encoding and muxing on a thread of its
// own (x264 adds its fixed worker threads), joined by a bounded queue of pooled pictures: the
// stages overlap, nothing is allocated per frame, and memory does not grow with the film.
struct Mp4Sink::Pipeline {
    Encoder encoder;
    SwsPtr sws;
    std::vector<AvFramePtr> pictures;
    BoundedQueue<AVFrame*> free_pictures{kPictures};
    BoundedQueue<AVFrame*> queued{kPictures};  // nullptr: the previous picture again
    std::atomic<bool> stopping{false};
    std::exception_ptr error;  // the encoding thread's failure, read after joining it
    std::thread thread;        // started last, once everything it uses exists

    Pipeline(const OutputSpec& spec, const EncoderSettings& settings)
        : encoder(spec, settings), sws(make_yuv420p_converter(spec.width, spec.height)) {
        for (std::size_t i = 0; i < kPictures; ++i) {
            pictures.push_back(make_picture(spec.width, spec.height));
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
        sws_scale(sws.get(), planes, strides, 0, frame.height, (*picture)->data, (*picture)->linesize);
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
        encoder.finish();
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
                encoder.encode(held);
            }
        } catch (...) {
            error = std::current_exception();
            queued.close();
            free_pictures.close();
        }
    }
};

Mp4Sink::Mp4Sink(const Fonts& fonts, EncoderSettings settings)
    : fonts_(fonts), settings_(std::move(settings)) {}

Mp4Sink::~Mp4Sink() { abort(); }

void Mp4Sink::begin(const OutputSpec& spec) {
    abort();
    pipeline_ = std::make_unique<Pipeline>(spec, settings_);
    raster_.emplace(fonts_, spec.width, spec.height);
}

void Mp4Sink::write(const story::Scene& scene) {
    if (!pipeline_) throw SystemError("Mp4Sink::write before begin()");
    if (raster_->draw(scene)) {
        pipeline_->convert(raster_->frame());
    } else {
        pipeline_->repeat();
    }
}

void Mp4Sink::write_frame(const Frame& frame) {
    if (!pipeline_) throw SystemError("Mp4Sink::write_frame before begin()");
    const AVCodecContext& codec = *pipeline_->encoder.codec;
    if (frame.width != codec.width || frame.height != codec.height) {
        throw SystemError("frame is " + std::to_string(frame.width) + "x" +
                          std::to_string(frame.height) + ", the video " +
                          std::to_string(codec.width) + "x" + std::to_string(codec.height));
    }
    pipeline_->convert(frame);
}

void Mp4Sink::finish() {
    if (!pipeline_) throw SystemError("Mp4Sink::finish before begin()");
    // Whatever happens, the sink is closed afterwards; a failed finish leaves no file.
    const std::unique_ptr<Pipeline> pipeline = std::move(pipeline_);
    pipeline->finish();
}

void Mp4Sink::abort() noexcept { pipeline_.reset(); }

}  // namespace render
