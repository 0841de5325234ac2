// Resampling with libswresample; see resampler.hpp.
#include "render/sound/decode/resampler.hpp"

extern "C" {
#include <libswresample/swresample.h>
}

#include "render/av/av.hpp"
#include "render/sound/decode/audio_decode.hpp"

namespace render {

void Resampler::SwrDeleter::operator()(SwrContext* s) const { swr_free(&s); }

Resampler::Resampler(const AVChannelLayout& layout, AVSampleFormat format, int rate, int channels)
    : channels_(channels), format_(format), rate_(rate) {
    // A stream may not say which channels it holds: take them in the default order.
    if (layout.order == AV_CHANNEL_ORDER_UNSPEC)
        av_channel_layout_default(&layout_, layout.nb_channels);
    else
        av_check(av_channel_layout_copy(&layout_, &layout), "cannot copy a channel layout");
    AVChannelLayout out;
    av_channel_layout_default(&out, channels);
    SwrContext* raw = nullptr;
    av_check(swr_alloc_set_opts2(&raw, &out, AV_SAMPLE_FMT_FLT, kAudioRate, &layout_, format, rate,
                                 0, nullptr),
             "cannot set up the resampler");
    swr_.reset(raw);
    av_check(swr_init(swr_.get()), "cannot set up the resampler");
}

Resampler::~Resampler() { av_channel_layout_uninit(&layout_); }

bool Resampler::takes(const AVFrame& frame) const {
    if (frame.format != format_ || frame.sample_rate != rate_) return false;
    if (frame.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC)
        return frame.ch_layout.nb_channels == layout_.nb_channels;
    return av_channel_layout_compare(&frame.ch_layout, &layout_) == 0;
}

void Resampler::convert(const std::uint8_t* const* in, int count, std::vector<float>& out) {
    const int room = swr_get_out_samples(swr_.get(), count);
    if (room <= 0) return;
    const std::size_t at = out.size();
    const auto width = static_cast<std::size_t>(channels_);
    out.resize(at + static_cast<std::size_t>(room) * width);
    auto* dst = reinterpret_cast<std::uint8_t*>(out.data() + at);
    const int got =
        av_check(swr_convert(swr_.get(), &dst, room, const_cast<const std::uint8_t**>(in), count),
                 "cannot resample");
    out.resize(at + static_cast<std::size_t>(got) * width);
}

void Resampler::flush(std::vector<float>& out) {
    for (std::size_t before = ~std::size_t{0}; out.size() != before;) {
        before = out.size();
        convert(nullptr, 0, out);
    }
}

}  // namespace render
