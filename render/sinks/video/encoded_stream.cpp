// EncodedStream: see encoded_stream.hpp. Encoder settings are fixed and the muxer bit-exact, so
// identical frames give identical files.
#include "render/sinks/video/encoded_stream.hpp"

#include <new>

#include "render/sys/error.hpp"

namespace render {
namespace {

CodecContextPtr open_encoder(const StreamSetup& setup, bool global_header) {
    const AVCodec* codec = avcodec_find_encoder_by_name(setup.encoder);
    if (!codec)
        throw SystemError(std::string("libavcodec was built without the ") + setup.encoder +
                          " encoder");
    CodecContextPtr ctx(avcodec_alloc_context3(codec));
    if (!ctx) throw std::bad_alloc();
    ctx->width = setup.width;
    ctx->height = setup.height;
    ctx->pix_fmt = setup.pix_fmt;
    ctx->time_base = setup.time_base;
    ctx->framerate = setup.frame_rate;
    ctx->sample_aspect_ratio = AVRational{1, 1};
    ctx->thread_count = setup.threads;
    ctx->bit_rate = setup.bit_rate;
    ctx->flags |= AV_CODEC_FLAG_BITEXACT;
    if (global_header) ctx->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    if (setup.bt709) {
        ctx->color_primaries = AVCOL_PRI_BT709;
        ctx->color_trc = AVCOL_TRC_BT709;
        ctx->colorspace = AVCOL_SPC_BT709;
        ctx->color_range = AVCOL_RANGE_MPEG;
    }
    AVDictionary* options = nullptr;
    for (const auto& [key, value] : setup.options)
        av_dict_set(&options, key.c_str(), value.c_str(), 0);
    const int ret = avcodec_open2(ctx.get(), codec, &options);
    av_dict_free(&options);
    av_check(ret, std::string("cannot open the ") + setup.encoder + " encoder");
    return ctx;
}

}  // namespace

StreamSetup stream_setup(const char* muxer, const char* encoder, const OutputSpec& spec,
                         AVPixelFormat pix_fmt, AVRational time_base) {
    StreamSetup setup;
    setup.muxer = muxer;
    setup.encoder = encoder;
    setup.width = spec.width;
    setup.height = spec.height;
    setup.pix_fmt = pix_fmt;
    setup.time_base = time_base;
    setup.frame_rate = AVRational{spec.fps, 1};
    return setup;
}

void check_yuv420p(const OutputSpec& spec) {
    if (spec.width % 2 != 0 || spec.height % 2 != 0 || spec.fps <= 0)
        throw SystemError("cannot encode " + std::to_string(spec.width) + "x" +
                          std::to_string(spec.height) + "@" + std::to_string(spec.fps) +
                          ": yuv420p needs even sizes and a positive frame rate");
}

EncodedStream::EncodedStream(const std::string& final_path, const StreamSetup& setup,
                             const AudioCodecSetup* sound)
    : temp_(final_path),
      output_(open_output(temp_, setup.muxer)),
      codec_(open_encoder(setup, output_->oformat->flags & AVFMT_GLOBALHEADER)) {
    stream_ = avformat_new_stream(output_.get(), nullptr);
    if (!stream_) throw std::bad_alloc();
    av_check(avcodec_parameters_from_context(stream_->codecpar, codec_.get()),
             "cannot copy encoder parameters");
    stream_->time_base = codec_->time_base;
    stream_->avg_frame_rate = codec_->framerate;
    if (sound) {
        sound_.emplace(*sound, output_->oformat->flags & AVFMT_GLOBALHEADER, [this](AVPacket* p) {
            av_packet_rescale_ts(p, sound_->context().time_base, sound_stream_->time_base);
            p->stream_index = sound_stream_->index;
            write_packet(output_.get(), p, temp_);
        });
        sound_stream_ = avformat_new_stream(output_.get(), nullptr);
        if (!sound_stream_) throw std::bad_alloc();
        av_check(avcodec_parameters_from_context(sound_stream_->codecpar, &sound_->context()),
                 "cannot copy the " + sound->encoder + " parameters");
        sound_stream_->time_base = sound_->context().time_base;
    }
    write_header(output_.get(), temp_, setup.muxer_options);
    unit_duration_ = setup.unit_duration;
}

AvFramePtr EncodedStream::make_picture() const {
    AvFramePtr picture = make_frame();
    picture->format = codec_->pix_fmt;
    picture->width = codec_->width;
    picture->height = codec_->height;
    av_check(av_frame_get_buffer(picture.get(), 0), "cannot allocate a video frame");
    return picture;
}

void EncodedStream::send(AVFrame* frame) {
    av_check(avcodec_send_frame(codec_.get(), frame), "cannot encode a frame");
    drain();
}

void EncodedStream::send_sound(const float* pcm, std::size_t frames) {
    if (!sound_) throw SystemError("EncodedStream::send_sound without a sound stream");
    sound_->push(pcm, frames);
}

void EncodedStream::finish() {
    av_check(avcodec_send_frame(codec_.get(), nullptr), "cannot flush the encoder");
    drain();
    if (sound_) sound_->finish();
    finish_output(output_, temp_);
    temp_.commit();
}

void EncodedStream::drain() {
    for (;;) {
        const int ret = avcodec_receive_packet(codec_.get(), packet_.get());
        if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF) return;
        av_check(ret, "cannot encode a frame");
        if (unit_duration_ && packet_->duration == 0) packet_->duration = 1;
        av_packet_rescale_ts(packet_.get(), codec_->time_base, stream_->time_base);
        packet_->stream_index = stream_->index;
        write_packet(output_.get(), packet_.get(), temp_);
    }
}

SwsPtr make_yuv420p_converter(int width, int height) {
    SwsPtr sws(sws_getContext(width, height, AV_PIX_FMT_RGB32, width, height, AV_PIX_FMT_YUV420P,
                              SWS_BILINEAR | SWS_ACCURATE_RND, nullptr, nullptr, nullptr));
    if (!sws) throw SystemError("cannot create the RGB to yuv420p converter");
    const int* bt709 = sws_getCoefficients(SWS_CS_ITU709);
    av_check(sws_setColorspaceDetails(sws.get(), bt709, 1, bt709, 0, 0, 1 << 16, 1 << 16),
             "cannot set BT.709 conversion");
    return sws;
}

}  // namespace render
