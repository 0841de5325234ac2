// AAC segments: the window's mix through the AAC encoder, keeping the packets of the frames the
// window owns, written to an .m4a that the film's assembly copies from.
#include "render/sound/aac_segment.hpp"

#include <algorithm>

#include "render/sound/sound_file.hpp"
#include "render/sys/error.hpp"

namespace render {

namespace {

// Frames of the neighbours' mix fed before the window (3.07 s) and after it (0.5 s). At constant
// quality FFmpeg's fast coder keeps no rate control, but its psychoacoustic model carries a bit
// reservoir and the range of perceptual entropy it has seen, so two encoders started at different
// times write the same frame, byte for byte, only after a few seconds of the same input. The lead
// is the second half of the pre-roll, where the join looks for such a frame. Measured on 149
// seams of speech-like lines over music (`MANY=150 build/test_render "[.seams]"`, README "Sound"):
// 24 frames of pre-roll and 12 of lead joined 78 exactly, 96 and 48 joined 146, 144 and 72 all;
// lines alone, all 149 with 144 and 72. After the window, 24 frames let the encoder see what
// follows the window's last frames as the next window's encoder sees it.
constexpr std::int64_t kRoll = 144, kLead = 72, kPost = 24;

std::int64_t ceil_frames(std::int64_t samples) { return (samples + kAacFrame - 1) / kAacFrame; }

}  // namespace

AacWindow aac_window(std::int64_t begin, std::int64_t end, std::int64_t film_samples) {
    AacWindow w;
    w.first = begin == 0 ? -1 : ceil_frames(begin);
    w.end = ceil_frames(end);
    w.input_begin = std::max<std::int64_t>(0, (w.first - kRoll) * kAacFrame);
    w.input_end = std::min(film_samples, (w.end + kPost) * kAacFrame);
    // The encoder's frames start with its priming frame, the one before input_begin's.
    w.lead = std::clamp<std::int64_t>(w.first - (w.input_begin / kAacFrame - 1), 0, kLead);
    return w;
}

std::int64_t write_aac_segment(const FilmAudio& audio, const AacWindow& window,
                               const TempFile& file, const CancelToken* cancel) {
    std::int64_t kept = 0;
    // The encoder's packet stamped p (priming: -1024) decodes to the window's samples
    // [p, p + 1024): film frame (input_begin + p) / 1024.
    const auto keep = [&](AVPacket* packet) {
        const std::int64_t frame = (window.input_begin + packet->pts) / kAacFrame;
        if (frame < window.first - window.lead || frame >= window.end) return false;
        packet->pts = packet->dts = kept++ * kAacFrame;
        packet->duration = kAacFrame;
        return true;
    };
    encode_sound(audio, window.input_begin, window.input_end, aac_setup(), "mp4", file, keep,
                 cancel);
    return kept;
}

std::int64_t audio_packet_count(const std::string& path) {
    try {
        InputContextPtr input = open_input(path);
        const int index = av_find_best_stream(input.get(), AVMEDIA_TYPE_AUDIO, -1, -1, nullptr, 0);
        if (index < 0) return -1;
        std::int64_t count = 0;
        const AvPacketPtr packet = make_packet();
        while (read_packet(input.get(), packet.get())) count += packet->stream_index == index;
        return count;
    } catch (const SystemError&) {
        return -1;
    }
}

}  // namespace render
