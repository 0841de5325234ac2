// Decoding any sound file and resampling PCM to the film's 48 kHz float; see decode_audio.hpp.
#include "render/av/decode_audio.hpp"

#include <cstdint>
#include <memory>

#include "render/av/av.hpp"
#include "render/sys/error.hpp"

extern "C" {
#include <libavutil/channel_layout.h>
#include <libswresample/swresample.h>
}

namespace render {

namespace {

struct SwrDeleter {
    void operator()(SwrContext* s) const { swr_free(&s); }
};
using SwrPtr = std::unique_ptr<SwrContext, SwrDeleter>;

// Converts PCM in the given layout, format and rate to interleaved float at kAudioRate.
class Resampler {
  public:
    Resampler(const AVChannelLayout& layout, AVSampleFormat format, int rate, int channels)
        : channels_(channels), format_(format), rate_(rate) {
        av_check(av_channel_layout_copy(&layout_, &layout), "cannot copy a channel layout");
        AVChannelLayout out;
        av_channel_layout_default(&out, channels);
        SwrContext* raw = nullptr;
        av_check(swr_alloc_set_opts2(&raw, &out, AV_SAMPLE_FMT_FLT, kAudioRate, &layout_, format,
                                     rate, 0, nullptr),
                 "cannot set up the resampler");
        swr_.reset(raw);
        av_check(swr_init(swr_.get()), "cannot set up the resampler");
    }
    ~Resampler() { av_channel_layout_uninit(&layout_); }
    Resampler(const Resampler&) = delete;
    Resampler& operator=(const Resampler&) = delete;

    bool takes(const AVFrame& frame) const {
        return frame.format == format_ && frame.sample_rate == rate_ &&
               av_channel_layout_compare(&frame.ch_layout, &layout_) == 0;
    }

    // Appends the output for count input samples per channel (in: one plane per channel for
    // planar formats, one buffer otherwise).
    void convert(const std::uint8_t* const* in, int count, std::vector<float>& out) {
        const int room = swr_get_out_samples(swr_.get(), count);
        if (room <= 0) return;
        const std::size_t at = out.size();
        out.resize(at + static_cast<std::size_t>(room) * channels_);
        auto* dst = reinterpret_cast<std::uint8_t*>(out.data() + at);
        const int got = av_check(
            swr_convert(swr_.get(), &dst, room, const_cast<const std::uint8_t**>(in), count),
            "cannot resample");
        out.resize(at + static_cast<std::size_t>(got) * channels_);
    }

    // Appends what the filter still holds.
    void flush(std::vector<float>& out) {
        for (std::size_t before = ~std::size_t{0}; out.size() != before;) {
            before = out.size();
            convert(nullptr, 0, out);
        }
    }

  private:
    SwrPtr swr_;
    AVChannelLayout layout_{};
    int channels_;
    AVSampleFormat format_;
    int rate_;
};

// Decodes every frame of the stream into out, resampled; a change of format midway starts a new
// resampler after flushing the old one.
void decode_stream(AVFormatContext* input, int stream, int channels, std::vector<float>& out) {
    const AVCodecParameters* par = input->streams[stream]->codecpar;
    const AVCodec* codec = avcodec_find_decoder(par->codec_id);
    if (!codec) throw SystemError(std::string("no decoder for ") + avcodec_get_name(par->codec_id));
    CodecContextPtr decoder(avcodec_alloc_context3(codec));
    if (!decoder) throw std::bad_alloc();
    av_check(avcodec_parameters_to_context(decoder.get(), par), "cannot set up the decoder");
    av_check(avcodec_open2(decoder.get(), codec, nullptr), "cannot open the decoder");
    std::unique_ptr<Resampler> resampler;
    AvPacketPtr packet = make_packet();
    AvFramePtr frame = make_frame();
    const auto drain = [&] {
        for (;;) {
            const int ret = avcodec_receive_frame(decoder.get(), frame.get());
            if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF) return;
            av_check(ret, "cannot decode a frame");
            if (!resampler || !resampler->takes(*frame)) {
                if (resampler) resampler->flush(out);
                resampler = std::make_unique<Resampler>(frame->ch_layout,
                                                        static_cast<AVSampleFormat>(frame->format),
                                                        frame->sample_rate, channels);
            }
            resampler->convert(frame->extended_data, frame->nb_samples, out);
        }
    };
    while (read_packet(input, packet.get())) {
        if (packet->stream_index != stream) continue;
        av_check(avcodec_send_packet(decoder.get(), packet.get()), "cannot decode a packet");
        drain();
    }
    av_check(avcodec_send_packet(decoder.get(), nullptr), "cannot finish decoding");
    drain();
    if (resampler) resampler->flush(out);
}

}  // namespace

DecodedAudio decode_audio(const std::string& path, int channels) {
    InputContextPtr input = open_input(path);  // "cannot open <path>: ..."
    DecodedAudio audio{channels, {}};
    try {
        const int stream = av_find_best_stream(input.get(), AVMEDIA_TYPE_AUDIO, -1, -1, nullptr, 0);
        if (stream < 0) throw SystemError("no audio stream");
        decode_stream(input.get(), stream, channels, audio.samples);
    } catch (const SystemError& e) {
        throw SystemError("cannot decode " + path + ": " + e.what());
    }
    return audio;
}

std::vector<float> resample_mono(const std::vector<float>& pcm, int rate) {
    if (rate == kAudioRate) return pcm;
    const AVChannelLayout mono = AV_CHANNEL_LAYOUT_MONO;
    Resampler resampler(mono, AV_SAMPLE_FMT_FLT, rate, 1);
    std::vector<float> out;
    const auto* in = reinterpret_cast<const std::uint8_t*>(pcm.data());
    resampler.convert(&in, static_cast<int>(pcm.size()), out);
    resampler.flush(out);
    return out;
}

}  // namespace render
