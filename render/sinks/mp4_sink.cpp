// Encodes Cairo ARGB32 frames to H.264 (libx264) in an MP4 written through a temporary file:
// swscale converts to BT.709 limited-range yuv420p, pts is the frame index at time base 1/fps.
#include "render/sinks/mp4_sink.hpp"

#include <cstdint>
#include <new>

#include "render/av.hpp"
#include "render/error.hpp"
#include "render/temp_file.hpp"

namespace render {
namespace {

CodecContextPtr open_encoder(const OutputSpec& spec, const EncoderSettings& settings,
                             bool global_header) {
    const AVCodec* codec = avcodec_find_encoder_by_name("libx264");
    if (!codec) throw SystemError("libavcodec was built without the libx264 encoder");
    if (spec.width % 2 != 0 || spec.height % 2 != 0 || spec.fps <= 0) {
        throw SystemError("cannot encode " + std::to_string(spec.width) + "x" +
                          std::to_string(spec.height) + "@" + std::to_string(spec.fps) +
                          ": yuv420p needs even sizes and a positive frame rate");
    }
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
    const int ret = avcodec_open2(ctx.get(), codec, &options);
    av_dict_free(&options);
    av_check(ret, "cannot open the libx264 encoder");
    return ctx;
}

// Cairo's native-endian ARGB32 is libav's RGB32; the matrix is BT.709, full-range RGB in,
// limited-range YUV out, matching the tags on the stream.
SwsPtr make_converter(int width, int height) {
    SwsPtr sws(sws_getContext(width, height, AV_PIX_FMT_RGB32, width, height, AV_PIX_FMT_YUV420P,
                              SWS_BILINEAR | SWS_ACCURATE_RND, nullptr, nullptr, nullptr));
    if (!sws) throw SystemError("cannot create the RGB to yuv420p converter");
    const int* bt709 = sws_getCoefficients(SWS_CS_ITU709);
    av_check(sws_setColorspaceDetails(sws.get(), bt709, 1, bt709, 0, 0, 1 << 16, 1 << 16),
             "cannot set BT.709 conversion");
    return sws;
}

}  // namespace

std::string to_string(const EncoderSettings& s) {
    return "preset=" + s.preset + " crf=" + std::to_string(s.crf) + " tune=" + s.tune +
           " threads=" + std::to_string(s.threads) +
           " gop_seconds=" + std::to_string(s.gop_seconds);
}

// One open output file: muxer, encoder, converter and the temporary file they write to.
struct Mp4Sink::Encoder {
    TempFile temp;
    OutputContextPtr output;
    CodecContextPtr codec;
    SwsPtr sws;
    AvFramePtr yuv = make_frame();
    AvPacketPtr packet = make_packet();
    AVStream* stream = nullptr;
    std::int64_t next_pts = 0;

    Encoder(const OutputSpec& spec, const EncoderSettings& settings)
        : temp(spec.path),
          output(open_mp4_output(temp.path())),
          codec(open_encoder(spec, settings, output->oformat->flags & AVFMT_GLOBALHEADER)),
          sws(make_converter(spec.width, spec.height)) {
        stream = avformat_new_stream(output.get(), nullptr);
        if (!stream) throw std::bad_alloc();
        av_check(avcodec_parameters_from_context(stream->codecpar, codec.get()),
                 "cannot copy encoder parameters");
        stream->time_base = codec->time_base;
        stream->avg_frame_rate = codec->framerate;
        write_mp4_header(output.get());

        yuv->format = AV_PIX_FMT_YUV420P;
        yuv->width = spec.width;
        yuv->height = spec.height;
        av_check(av_frame_get_buffer(yuv.get(), 0), "cannot allocate a yuv420p frame");
    }

    void encode(const Frame& frame) {
        if (frame.width != codec->width || frame.height != codec->height) {
            throw SystemError("frame is " + std::to_string(frame.width) + "x" +
                              std::to_string(frame.height) + ", the video " +
                              std::to_string(codec->width) + "x" + std::to_string(codec->height));
        }
        // The encoder may still hold the previous buffer as a reference.
        av_check(av_frame_make_writable(yuv.get()), "cannot reuse the yuv420p frame");
        const std::uint8_t* planes[1] = {frame.data.data()};
        const int strides[1] = {frame.stride};
        sws_scale(sws.get(), planes, strides, 0, frame.height, yuv->data, yuv->linesize);
        yuv->pts = next_pts++;
        av_check(avcodec_send_frame(codec.get(), yuv.get()), "cannot encode a frame");
        drain();
    }

    void finish() {
        av_check(avcodec_send_frame(codec.get(), nullptr), "cannot flush the encoder");
        drain();
        av_check(av_write_trailer(output.get()), "cannot finish the MP4");
        output.reset();  // closes the file before it is renamed
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
            av_check(av_interleaved_write_frame(output.get(), packet.get()),
                     "cannot write a video packet");
        }
    }
};

Mp4Sink::Mp4Sink(const Fonts& fonts, EncoderSettings settings)
    : fonts_(fonts), settings_(std::move(settings)) {}

Mp4Sink::~Mp4Sink() { abort(); }

void Mp4Sink::begin(const OutputSpec& spec) {
    abort();
    encoder_ = std::make_unique<Encoder>(spec, settings_);
    frame_.width = spec.width;
    frame_.height = spec.height;
}

void Mp4Sink::write(const story::Scene& scene) {
    rasterize(scene, fonts_, frame_);
    write_frame(frame_);
}

void Mp4Sink::write_frame(const Frame& frame) {
    if (!encoder_) throw SystemError("Mp4Sink::write_frame before begin()");
    encoder_->encode(frame);
}

void Mp4Sink::finish() {
    if (!encoder_) throw SystemError("Mp4Sink::finish before begin()");
    // Whatever happens, the sink is closed afterwards; a failed finish leaves no file.
    const std::unique_ptr<Encoder> encoder = std::move(encoder_);
    encoder->finish();
}

void Mp4Sink::abort() noexcept { encoder_.reset(); }

}  // namespace render
