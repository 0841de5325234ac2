// AudioReader: raw speech files read directly, everything else demuxed, decoded and converted by
// libswresample to interleaved float at 48 kHz; both behind one small Source interface.
#include "render/sound/decode/audio_decode.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <new>
#include <vector>

#include "render/av/av.hpp"
#include "render/sound/decode/resampler.hpp"
#include "render/sys/error.hpp"

namespace render {

struct AudioReader::Source {
    virtual ~Source() = default;
    // Interleaved frames of the reader's channel count; fewer than asked only at the end.
    virtual std::size_t read(float* out, std::size_t frames) = 0;
};

namespace {

constexpr float kEqualPower = static_cast<float>(M_SQRT1_2);

bool is_raw(const std::string& path) { return std::filesystem::path(path).extension() == ".f32"; }

// The speech cache's files: little-endian mono float at 48 kHz, the host's own layout on every
// machine shardreel builds for.
class RawMono final : public AudioReader::Source {
  public:
    RawMono(const std::string& path, int channels) : path_(path), channels_(channels) {
        file_ = std::fopen(path.c_str(), "rb");
        if (!file_) throw SystemError("cannot open " + path + ": " + std::strerror(errno));
    }
    ~RawMono() override { std::fclose(file_); }

    std::size_t read(float* out, std::size_t frames) override {
        const std::size_t got = std::fread(out, sizeof(float), frames, file_);
        if (got < frames && std::ferror(file_))
            throw SystemError("cannot read " + path_ + ": " + std::strerror(errno));
        if (channels_ == 2)  // widen in place, back to front
            for (std::size_t i = got; i-- > 0;) out[2 * i] = out[2 * i + 1] = out[i] * kEqualPower;
        return got;
    }

  private:
    std::string path_;
    int channels_;
    std::FILE* file_ = nullptr;
};

struct OpenedAudio {
    InputContextPtr input;
    AVStream* stream = nullptr;
};

OpenedAudio open_audio(const std::string& path) {
    OpenedAudio a{open_input(path)};
    const int index = av_find_best_stream(a.input.get(), AVMEDIA_TYPE_AUDIO, -1, -1, nullptr, 0);
    if (index < 0) throw SystemError(path + " has no audio stream (it is not a sound file)");
    a.stream = a.input->streams[index];
    return a;
}

// Demuxes and decodes the first audio stream, converting every frame to the reader's format.
class Decoded final : public AudioReader::Source {
  public:
    Decoded(const std::string& path, int channels)
        : path_(path), channels_(channels), audio_(open_audio(path)) {
        const AVCodec* codec = avcodec_find_decoder(audio_.stream->codecpar->codec_id);
        if (!codec) throw SystemError("cannot decode " + path + ": no decoder for its codec");
        codec_.reset(avcodec_alloc_context3(codec));
        if (!codec_) throw std::bad_alloc();
        av_check(avcodec_parameters_to_context(codec_.get(), audio_.stream->codecpar),
                 "cannot decode " + path);
        codec_->thread_count = 1;
        av_check(avcodec_open2(codec_.get(), codec, nullptr), "cannot decode " + path);
    }

    std::size_t read(float* out, std::size_t frames) override {
        std::size_t done = 0;
        while (done < frames) {
            if (pos_ == pending_.size() && !refill()) break;
            const std::size_t n = std::min(frames - done, (pending_.size() - pos_) / channels_);
            std::memcpy(out + done * channels_, pending_.data() + pos_, n * channels_ * 4);
            pos_ += n * channels_;
            done += n;
        }
        return done;
    }

  private:
    // Converts `frame` (nullptr: flushes the resampler) into pending_; a frame in another
    // format than the last (a stream may change midway) gets a resampler of its own.
    void convert(const AVFrame* frame) {
        pending_.clear();
        pos_ = 0;
        if (frame && (!resampler_ || !resampler_->takes(*frame))) {
            if (resampler_) resampler_->flush(pending_);
            resampler_ = std::make_unique<Resampler>(frame->ch_layout,
                                                     static_cast<AVSampleFormat>(frame->format),
                                                     frame->sample_rate, channels_);
        }
        if (!resampler_) return;
        if (frame)
            resampler_->convert(frame->extended_data, frame->nb_samples, pending_);
        else
            resampler_->flush(pending_);
    }

    // Decodes until some converted samples are pending; false at the end of the file.
    bool refill() {
        while (!flushed_) {
            const int ret = avcodec_receive_frame(codec_.get(), frame_.get());
            if (ret == 0) {
                convert(frame_.get());
                av_frame_unref(frame_.get());
                if (!pending_.empty()) return true;
                continue;
            }
            if (ret == AVERROR_EOF) {
                flushed_ = true;
                convert(nullptr);
                return !pending_.empty();
            }
            if (ret != AVERROR(EAGAIN)) av_check(ret, "cannot decode " + path_);
            send_next_packet();
        }
        return false;
    }

    void send_next_packet() {
        while (!eof_) {
            if (!read_packet(audio_.input.get(), packet_.get())) {
                eof_ = true;
                av_check(avcodec_send_packet(codec_.get(), nullptr), "cannot decode " + path_);
                return;
            }
            if (packet_->stream_index != audio_.stream->index) continue;
            const int ret = avcodec_send_packet(codec_.get(), packet_.get());
            if (ret == AVERROR_INVALIDDATA) continue;  // a damaged packet: skip it, as players do
            av_check(ret, "cannot decode " + path_);
            return;
        }
    }

    std::string path_;
    int channels_;
    OpenedAudio audio_;
    CodecContextPtr codec_;
    std::unique_ptr<Resampler> resampler_;
    AvPacketPtr packet_ = make_packet();
    AvFramePtr frame_ = make_frame();
    std::vector<float> pending_;
    std::size_t pos_ = 0;
    bool eof_ = false, flushed_ = false;
};

}  // namespace

AudioProbe probe_audio(const std::string& path) {
    const OpenedAudio a = open_audio(path);
    AudioProbe probe;
    probe.codec = avcodec_get_name(a.stream->codecpar->codec_id);
    probe.channels = a.stream->codecpar->ch_layout.nb_channels;
    probe.sample_rate = a.stream->codecpar->sample_rate;
    if (a.stream->duration != AV_NOPTS_VALUE)
        probe.seconds = static_cast<double>(a.stream->duration) * av_q2d(a.stream->time_base);
    else if (a.input->duration != AV_NOPTS_VALUE)
        probe.seconds = static_cast<double>(a.input->duration) / AV_TIME_BASE;
    return probe;
}

AudioReader::AudioReader(const std::string& path, int channels) : channels_(channels) {
    if (channels != 1 && channels != 2) throw SystemError("AudioReader: 1 or 2 channels");
    if (is_raw(path))
        source_ = std::make_unique<RawMono>(path, channels);
    else
        source_ = std::make_unique<Decoded>(path, channels);
}

AudioReader::~AudioReader() = default;

std::size_t AudioReader::read(float* out, std::size_t frames) { return source_->read(out, frames); }

void AudioReader::skip(std::int64_t frames) {
    std::vector<float> scratch(4096 * static_cast<std::size_t>(channels_));
    while (frames > 0) {
        const std::size_t n = static_cast<std::size_t>(std::min<std::int64_t>(frames, 4096));
        const std::size_t got = read(scratch.data(), n);
        if (got == 0) return;
        frames -= static_cast<std::int64_t>(got);
    }
}

std::int64_t audio_frames(const std::string& path) {
    if (is_raw(path)) {
        std::error_code ec;
        const auto bytes = std::filesystem::file_size(path, ec);
        if (ec) throw SystemError("cannot read " + path + ": " + ec.message());
        return static_cast<std::int64_t>(bytes / sizeof(float));
    }
    AudioReader reader(path, 1);
    std::int64_t total = 0;
    std::vector<float> block(8192);
    while (const std::size_t got = reader.read(block.data(), block.size())) total += got;
    return total;
}

DecodedAudio decode_audio(const std::string& path, int channels) {
    AudioReader reader(path, channels);
    DecodedAudio audio{channels, {}};
    constexpr std::size_t kBlock = 8192;
    std::vector<float> block(kBlock * static_cast<std::size_t>(channels));
    while (const std::size_t got = reader.read(block.data(), kBlock))
        audio.samples.insert(audio.samples.end(), block.begin(),
                             block.begin() + static_cast<std::ptrdiff_t>(got * channels));
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
