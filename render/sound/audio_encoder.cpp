// AudioEncoder: see audio_encoder.hpp. Bit-exact flag, one thread, fixed options: identical PCM
// gives identical packets.
#include "render/sound/audio_encoder.hpp"

#include <algorithm>
#include <new>

extern "C" {
#include <libavutil/channel_layout.h>
}

#include "render/sound/decode/audio_decode.hpp"
#include "render/sys/error.hpp"

namespace render {

std::string to_string(const AudioCodecSetup& s) {
    std::string text = s.encoder + " bit_rate=" + std::to_string(s.bit_rate) +
                       " quality=" + std::to_string(s.quality);
    for (const auto& [key, value] : s.options) text += " " + key + "=" + value;
    return text;
}

const AudioCodecSetup& aac_setup() {
    static const AudioCodecSetup setup{"aac", 0, 2.0, {{"aac_coder", "fast"}, {"aac_pns", "0"}}};
    return setup;
}

const AudioCodecSetup& opus_setup() {
    static const AudioCodecSetup setup{
        "libopus", 128000, 0, {{"application", "audio"}, {"frame_duration", "20"}, {"vbr", "on"}}};
    return setup;
}

const AudioCodecSetup& wav_setup() {
    static const AudioCodecSetup setup{"pcm_f32le", 0, 0, {}};
    return setup;
}

namespace {

// The codec's sample formats, ended by AV_SAMPLE_FMT_NONE, or null when it takes any. FFmpeg 7.1
// (libavcodec 61.13) deprecates AVCodec::sample_fmts for avcodec_get_supported_config.
const AVSampleFormat* sample_formats(const AVCodec* codec) {
#if LIBAVCODEC_VERSION_INT >= AV_VERSION_INT(61, 13, 100)
    const void* formats = nullptr;
    av_check(avcodec_get_supported_config(nullptr, codec, AV_CODEC_CONFIG_SAMPLE_FORMAT, 0,
                                          &formats, nullptr),
             std::string("cannot list the sample formats of ") + codec->name);
    return static_cast<const AVSampleFormat*>(formats);
#else
    return codec->sample_fmts;
#endif
}

CodecContextPtr open_audio_encoder(const AudioCodecSetup& setup, bool global_header) {
    const AVCodec* codec = avcodec_find_encoder_by_name(setup.encoder.c_str());
    if (!codec) throw SystemError("libavcodec was built without the " + setup.encoder + " encoder");
    CodecContextPtr ctx(avcodec_alloc_context3(codec));
    if (!ctx) throw std::bad_alloc();
    ctx->sample_rate = kAudioRate;
    ctx->time_base = AVRational{1, kAudioRate};
    const AVChannelLayout stereo = AV_CHANNEL_LAYOUT_STEREO;
    av_check(av_channel_layout_copy(&ctx->ch_layout, &stereo), "cannot set up " + setup.encoder);
    // The codec's own float layout: planar for AAC, interleaved for Opus and PCM.
    const AVSampleFormat* formats = sample_formats(codec);
    ctx->sample_fmt = formats ? formats[0] : AV_SAMPLE_FMT_FLT;
    for (const AVSampleFormat* f = formats; f && *f != AV_SAMPLE_FMT_NONE; ++f)
        if (*f == AV_SAMPLE_FMT_FLT || *f == AV_SAMPLE_FMT_FLTP) ctx->sample_fmt = *f;
    ctx->bit_rate = setup.bit_rate;
    if (setup.quality > 0) {
        ctx->flags |= AV_CODEC_FLAG_QSCALE;
        ctx->global_quality = static_cast<int>(FF_QP2LAMBDA * setup.quality);
    }
    ctx->thread_count = 1;
    ctx->flags |= AV_CODEC_FLAG_BITEXACT;
    if (global_header) ctx->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    AVDictionary* options = nullptr;
    for (const auto& [key, value] : setup.options)
        av_dict_set(&options, key.c_str(), value.c_str(), 0);
    const int ret = avcodec_open2(ctx.get(), codec, &options);
    av_dict_free(&options);
    av_check(ret, "cannot open the " + setup.encoder + " encoder");
    return ctx;
}

}  // namespace

AudioEncoder::AudioEncoder(const AudioCodecSetup& setup, bool global_header, PacketSink sink)
    : codec_(open_audio_encoder(setup, global_header)),
      sink_(std::move(sink)),
      frame_size_(codec_->frame_size > 0 ? static_cast<std::size_t>(codec_->frame_size) : 4096) {}

void AudioEncoder::push(const float* pcm, std::size_t frames) {
    pending_.insert(pending_.end(), pcm, pcm + 2 * frames);
    std::size_t sent = 0;
    while (pending_.size() / 2 - sent >= frame_size_) {
        send_from(sent, frame_size_);
        sent += frame_size_;
    }
    pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(2 * sent));
}

void AudioEncoder::finish() {
    if (!pending_.empty()) send_from(0, pending_.size() / 2);
    pending_.clear();
    av_check(avcodec_send_frame(codec_.get(), nullptr),
             "cannot flush the " + std::string(codec_->codec->name) + " encoder");
    drain();
}

void AudioEncoder::send_from(std::size_t first, std::size_t frames) {
    AvFramePtr f = make_frame();
    f->format = codec_->sample_fmt;
    f->sample_rate = kAudioRate;
    f->nb_samples = static_cast<int>(frames);
    av_check(av_channel_layout_copy(&f->ch_layout, &codec_->ch_layout), "cannot encode audio");
    av_check(av_frame_get_buffer(f.get(), 0), "cannot allocate an audio frame");
    const float* src = pending_.data() + 2 * first;
    if (av_sample_fmt_is_planar(codec_->sample_fmt)) {
        auto* left = reinterpret_cast<float*>(f->data[0]);
        auto* right = reinterpret_cast<float*>(f->data[1]);
        for (std::size_t i = 0; i < frames; ++i) {
            left[i] = src[2 * i];
            right[i] = src[2 * i + 1];
        }
    } else {
        std::copy(src, src + 2 * frames, reinterpret_cast<float*>(f->data[0]));
    }
    f->pts = next_pts_;
    next_pts_ += static_cast<std::int64_t>(frames);
    av_check(avcodec_send_frame(codec_.get(), f.get()), "cannot encode audio");
    drain();
}

void AudioEncoder::drain() {
    for (;;) {
        const int ret = avcodec_receive_packet(codec_.get(), packet_.get());
        if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF) return;
        av_check(ret, "cannot encode audio");
        sink_(packet_.get());
        av_packet_unref(packet_.get());
    }
}

}  // namespace render
