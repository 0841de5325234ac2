// Video read-back for tests and checks: metadata from the demuxer, packets in file order, and
// one decoded frame converted to RGB24 with the BT.709 matrix.
#include "render/container/video_probe.hpp"

#include <new>

extern "C" {
#include <libavutil/pixdesc.h>
}

#include "render/av/av.hpp"
#include "render/sys/error.hpp"

namespace render {
namespace {

std::string or_empty(const char* s) { return s ? s : ""; }

double seconds(std::int64_t t, AVRational time_base) {
    return static_cast<double>(t) * av_q2d(time_base);
}

std::string metadata(const AVDictionary* dict, const char* key) {
    const AVDictionaryEntry* e = av_dict_get(dict, key, nullptr, 0);
    return e ? e->value : "";
}

int video_stream(AVFormatContext* input, const std::string& path) {
    const int index = av_find_best_stream(input, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
    if (index < 0) throw SystemError(path + ": no video stream");
    return index;
}

void read_stream_info(const AVStream& st, VideoInfo& info) {
    const AVCodecParameters& par = *st.codecpar;
    info.codec = avcodec_get_name(par.codec_id);
    info.width = par.width;
    info.height = par.height;
    info.pix_fmt = or_empty(av_get_pix_fmt_name(static_cast<AVPixelFormat>(par.format)));
    info.color_primaries = or_empty(av_color_primaries_name(par.color_primaries));
    info.color_trc = or_empty(av_color_transfer_name(par.color_trc));
    info.colorspace = or_empty(av_color_space_name(par.color_space));
    info.color_range = or_empty(av_color_range_name(par.color_range));
    const AVRational fps = st.avg_frame_rate.num > 0 ? st.avg_frame_rate : st.r_frame_rate;
    info.fps_num = fps.num;
    info.fps_den = fps.den;
    info.duration_seconds = seconds(st.duration, st.time_base);
}

std::vector<ProbedChapter> read_chapters(const AVFormatContext& input) {
    std::vector<ProbedChapter> chapters;
    for (unsigned i = 0; i < input.nb_chapters; ++i) {
        const AVChapter& c = *input.chapters[i];
        chapters.push_back({metadata(c.metadata, "title"), seconds(c.start, c.time_base),
                            seconds(c.end, c.time_base)});
    }
    return chapters;
}

// mov_text samples are a 16-bit big-endian length and that many bytes of UTF-8.
std::string mov_text_payload(const AVPacket& packet) {
    if (packet.size < 2) return "";
    const int length = (packet.data[0] << 8) | packet.data[1];
    return std::string(reinterpret_cast<const char*>(packet.data) + 2,
                       std::min(length, packet.size - 2));
}

CodecContextPtr open_decoder(const AVCodecParameters& par) {
    const AVCodec* codec = avcodec_find_decoder(par.codec_id);
    if (!codec) throw SystemError(std::string("no decoder for ") + avcodec_get_name(par.codec_id));
    CodecContextPtr ctx(avcodec_alloc_context3(codec));
    if (!ctx) throw std::bad_alloc();
    av_check(avcodec_parameters_to_context(ctx.get(), &par), "cannot configure the decoder");
    av_check(avcodec_open2(ctx.get(), codec, nullptr), "cannot open the decoder");
    return ctx;
}

// SWS_FULL_CHR_H_INT also avoids the unscaled yuv2rgb path, which with SWS_ACCURATE_RND
// ignores the limited input range (mid grey came back 2 levels dark).
std::vector<std::uint8_t> to_rgb24(const AVFrame& frame) {
    SwsPtr sws(sws_getContext(frame.width, frame.height, static_cast<AVPixelFormat>(frame.format),
                              frame.width, frame.height, AV_PIX_FMT_RGB24,
                              SWS_BILINEAR | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, nullptr,
                              nullptr, nullptr));
    if (!sws) throw SystemError("cannot create the yuv to RGB converter");
    const int* bt709 = sws_getCoefficients(SWS_CS_ITU709);
    av_check(sws_setColorspaceDetails(sws.get(), bt709, 0, bt709, 1, 0, 1 << 16, 1 << 16),
             "cannot set BT.709 conversion");
    std::vector<std::uint8_t> rgb(static_cast<std::size_t>(frame.width) * frame.height * 3);
    std::uint8_t* planes[1] = {rgb.data()};
    const int strides[1] = {frame.width * 3};
    sws_scale(sws.get(), frame.data, frame.linesize, 0, frame.height, planes, strides);
    return rgb;
}

}  // namespace

VideoInfo probe_video(const std::string& path) {
    const InputContextPtr input = open_input(path);
    const int video = video_stream(input.get(), path);
    VideoInfo info;
    read_stream_info(*input->streams[video], info);
    info.chapters = read_chapters(*input);

    std::vector<int> subtitle_of(input->nb_streams, -1);
    for (unsigned i = 0; i < input->nb_streams; ++i) {
        const AVStream& st = *input->streams[i];
        if (st.codecpar->codec_type == AVMEDIA_TYPE_AUDIO)
            info.audio_language = metadata(st.metadata, "language");
        if (st.codecpar->codec_type != AVMEDIA_TYPE_SUBTITLE) continue;
        subtitle_of[i] = static_cast<int>(info.subtitles.size());
        info.subtitles.push_back({avcodec_get_name(st.codecpar->codec_id),
                                  metadata(st.metadata, "language"),
                                  {},
                                  (st.disposition & AV_DISPOSITION_DEFAULT) != 0});
    }
    const AvPacketPtr packet = make_packet();
    while (read_packet(input.get(), packet.get())) {
        if (packet->stream_index == video) ++info.frame_count;
        const int sub = subtitle_of[packet->stream_index];
        std::string text = sub < 0 ? "" : mov_text_payload(*packet);
        if (text.empty()) continue;
        const AVRational tb = input->streams[packet->stream_index]->time_base;
        info.subtitles[sub].cues.push_back({seconds(packet->pts, tb),
                                            seconds(packet->pts + packet->duration, tb),
                                            std::move(text)});
    }
    return info;
}

std::vector<std::uint8_t> decode_frame_rgb(const std::string& path, std::int64_t index) {
    const InputContextPtr input = open_input(path);
    const int video = video_stream(input.get(), path);
    const CodecContextPtr decoder = open_decoder(*input->streams[video]->codecpar);
    const AvFramePtr frame = make_frame();
    const AvPacketPtr packet = make_packet();
    std::int64_t decoded = 0;
    // True once frame holds picture `index`; decoded counts pictures in presentation order.
    const auto reached = [&] {
        for (;;) {
            const int ret = avcodec_receive_frame(decoder.get(), frame.get());
            if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF) return false;
            av_check(ret, "cannot decode a frame");
            if (decoded++ == index) return true;
        }
    };
    bool more = true;
    while (more) {
        more = read_packet(input.get(), packet.get());
        if (more && packet->stream_index != video) continue;
        av_check(avcodec_send_packet(decoder.get(), more ? packet.get() : nullptr),
                 "cannot decode a packet");
        if (reached()) return to_rgb24(*frame);
    }
    throw SystemError(path + " has " + std::to_string(decoded) + " frames, no frame " +
                      std::to_string(index));
}

std::vector<std::vector<std::uint8_t>> video_packets(const std::string& path) {
    const InputContextPtr input = open_input(path);
    const int video = video_stream(input.get(), path);
    std::vector<std::vector<std::uint8_t>> payloads;
    const AvPacketPtr packet = make_packet();
    while (read_packet(input.get(), packet.get())) {
        if (packet->stream_index == video)
            payloads.emplace_back(packet->data, packet->data + packet->size);
    }
    return payloads;
}

}  // namespace render
