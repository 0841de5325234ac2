// Rasterises each scene, converts it to BT.709 yuv420p and encodes it with libvpx-vp9 into a
// WebM written through a temporary file; pts is the frame index at time base 1/fps. The sound
// follows each frame, so the muxer holds little of either.
#include "render/sinks/video/webm_sink.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include "render/sinks/video/encoded_stream.hpp"
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

// The film's mix, handed to the stream one video frame's worth at a time.
class SoundFeed {
  public:
    explicit SoundFeed(const FilmAudio& sound) : sound_(sound), mix_(sound, 0, sound.samples()) {}
    // Sends the sound up to the end of film frame `frames - 1`.
    void send_until(EncodedStream& stream, std::int64_t frames) {
        const std::int64_t until = std::min(film_sample(frames, sound_.fps), sound_.samples());
        while (sent_ < until) {
            const auto n = static_cast<std::size_t>(
                std::min<std::int64_t>(until - sent_, static_cast<std::int64_t>(kBlock)));
            const std::size_t got = mix_.read(block_.data(), n);
            if (got == 0) return;
            stream.send_sound(block_.data(), got);
            sent_ += static_cast<std::int64_t>(got);
        }
    }
    void send_rest(EncodedStream& stream) {
        mix_.drain([&](const float* pcm, std::size_t n) { stream.send_sound(pcm, n); });
    }

  private:
    static constexpr std::size_t kBlock = 4096;
    const FilmAudio& sound_;
    MixWindow mix_;
    std::vector<float> block_ = std::vector<float>(2 * kBlock);
    std::int64_t sent_ = 0;
};

struct WebmSink::Encoder {
    EncodedStream stream;
    SwsPtr sws;
    AvFramePtr yuv;
    std::int64_t next_pts = 0;
    std::optional<SoundFeed> sound;

    Encoder(const OutputSpec& spec, const Vp9Settings& settings, const FilmAudio* film_sound)
        : stream(spec.path, vp9_setup(spec, settings), film_sound ? &opus_setup() : nullptr),
          sws(make_yuv420p_converter(spec.width, spec.height)),
          yuv(stream.make_picture()) {
        if (film_sound) sound.emplace(*film_sound);
    }

    void encode(const Frame& frame) {
        // The encoder may still hold the previous buffer as a reference.
        av_check(av_frame_make_writable(yuv.get()), "cannot reuse the yuv420p frame");
        const std::uint8_t* planes[1] = {frame.data.data()};
        const int strides[1] = {frame.stride};
        sws_scale(sws.get(), planes, strides, 0, frame.height, yuv->data, yuv->linesize);
        yuv->pts = next_pts++;
        stream.send(yuv.get());
        if (sound) sound->send_until(stream, next_pts);
    }

    void finish() {
        if (sound) sound->send_rest(stream);
        stream.finish();
    }
};

WebmSink::WebmSink(const Fonts& fonts, Vp9Settings settings, const FilmAudio* sound)
    : fonts_(fonts), settings_(settings), sound_(sound), encoder_("WebmSink") {}

WebmSink::~WebmSink() { abort(); }

void WebmSink::begin(const OutputSpec& spec) {
    encoder_.open(spec, settings_, sound_);
    frame_.width = spec.width;
    frame_.height = spec.height;
}

void WebmSink::write(const story::Scene& scene) {
    Encoder& encoder = encoder_.get("write");
    rasterize(scene, fonts_, frame_);
    encoder.encode(frame_);
}

void WebmSink::finish() { encoder_.finish(); }

void WebmSink::abort() noexcept { encoder_.abort(); }

}  // namespace render
