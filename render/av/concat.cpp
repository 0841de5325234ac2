// Stream-copy concatenation: each segment's packets are shifted to start where the previous
// segment ended, so timestamps stay monotonic and the H.264 bytes are untouched.
#include "render/av/concat.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>

#include "render/av/av.hpp"
#include "render/sys/error.hpp"
#include "render/sys/temp_file.hpp"

namespace render {
namespace {

constexpr AVRational kMilliseconds{1, 1000};

struct Segment {
    InputContextPtr input;
    AVStream* video = nullptr;
};

bool same_video(const AVCodecParameters& a, const AVCodecParameters& b) {
    return a.codec_id == b.codec_id && a.width == b.width && a.height == b.height &&
           a.format == b.format && a.extradata_size == b.extradata_size &&
           (a.extradata_size == 0 || std::memcmp(a.extradata, b.extradata, a.extradata_size) == 0);
}

std::vector<Segment> open_segments(const std::vector<std::string>& paths) {
    if (paths.empty()) throw SystemError("concat: no input segments");
    std::vector<Segment> segments;
    for (const std::string& path : paths) {
        Segment s{open_input(path)};
        const int index =
            av_find_best_stream(s.input.get(), AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
        if (index < 0) throw SystemError("concat: " + path + " has no video stream");
        s.video = s.input->streams[index];
        if (!segments.empty() &&
            !same_video(*segments.front().video->codecpar, *s.video->codecpar)) {
            throw SystemError("concat: " + path +
                              " was encoded with different video parameters than " + paths.front());
        }
        segments.push_back(std::move(s));
    }
    return segments;
}

AVStream* new_stream(AVFormatContext* output) {
    AVStream* st = avformat_new_stream(output, nullptr);
    if (!st) throw std::bad_alloc();
    return st;
}

AVStream* add_video_stream(AVFormatContext* output, const AVStream& source) {
    AVStream* st = new_stream(output);
    av_check(avcodec_parameters_copy(st->codecpar, source.codecpar),
             "cannot copy video parameters");
    st->codecpar->codec_tag = 0;  // let the muxer pick the MP4 tag
    st->time_base = source.time_base;
    st->avg_frame_rate = source.avg_frame_rate;
    return st;
}

// The tx3g sample description FFmpeg's mov_text encoder writes by default: no display flags,
// centred at the bottom, transparent background, white 18 px text in font 1 ("Serif").
// clang-format off
constexpr std::uint8_t kTx3gDescription[] = {
    0, 0, 0, 0,                                          // display flags
    0x01, 0xFF,                                          // justification
    0, 0, 0, 0,                                          // background RGBA
    0, 0, 0, 0, 0, 0, 0, 0,                              // text box
    0, 0, 0, 0, 0, 1, 0, 0x12, 0xFF, 0xFF, 0xFF, 0xFF,  // style record
    0, 0, 0, 0x12, 'f', 't', 'a', 'b', 0, 1,             // font table with one entry:
    0, 1, 5, 'S', 'e', 'r', 'i', 'f'};                   // font 1, "Serif"
// clang-format on

AVStream* add_subtitle_stream(AVFormatContext* output, const std::string& language) {
    AVStream* st = new_stream(output);
    st->codecpar->codec_type = AVMEDIA_TYPE_SUBTITLE;
    st->codecpar->codec_id = AV_CODEC_ID_MOV_TEXT;
    st->codecpar->extradata = static_cast<std::uint8_t*>(
        av_mallocz(sizeof kTx3gDescription + AV_INPUT_BUFFER_PADDING_SIZE));
    if (!st->codecpar->extradata) throw std::bad_alloc();
    std::memcpy(st->codecpar->extradata, kTx3gDescription, sizeof kTx3gDescription);
    st->codecpar->extradata_size = sizeof kTx3gDescription;
    st->time_base = kMilliseconds;
    av_dict_set(&st->metadata, "language", language.c_str(), 0);
    return st;
}

std::int64_t to_ms(double seconds) { return std::llround(seconds * 1000); }

// AVChapter has no public constructor; avformat_free_context frees what is allocated here.
void add_chapters(AVFormatContext* output, const std::vector<ConcatChapter>& chapters) {
    if (chapters.empty()) return;
    output->chapters = static_cast<AVChapter**>(
        av_realloc_array(output->chapters, chapters.size(), sizeof(AVChapter*)));
    if (!output->chapters) throw std::bad_alloc();
    for (const ConcatChapter& c : chapters) {
        auto* chapter = static_cast<AVChapter*>(av_mallocz(sizeof(AVChapter)));
        if (!chapter) throw std::bad_alloc();
        output->chapters[output->nb_chapters++] = chapter;
        chapter->id = output->nb_chapters;
        chapter->time_base = kMilliseconds;
        chapter->start = to_ms(c.start_seconds);
        chapter->end = to_ms(c.end_seconds);
        av_dict_set(&chapter->metadata, "title", c.title.c_str(), 0);
    }
}

// A mov_text sample is a 16-bit big-endian length followed by the UTF-8 text; the muxer
// inserts the empty samples that end a cue before a gap.
void write_cue(AVFormatContext* output, const AVStream& stream, const SubtitleCue& cue,
               const TempFile& file) {
    if (cue.text.size() > 0xFFFF) throw SystemError("caption longer than 65535 bytes");
    const AvPacketPtr packet = make_packet();
    av_check(av_new_packet(packet.get(), static_cast<int>(cue.text.size() + 2)),
             "cannot allocate a caption packet");
    packet->data[0] = static_cast<std::uint8_t>(cue.text.size() >> 8);
    packet->data[1] = static_cast<std::uint8_t>(cue.text.size() & 0xFF);
    std::memcpy(packet->data + 2, cue.text.data(), cue.text.size());
    packet->pts = packet->dts =
        av_rescale_q(to_ms(cue.start_seconds), kMilliseconds, stream.time_base);
    packet->duration =
        av_rescale_q(to_ms(cue.end_seconds - cue.start_seconds), kMilliseconds, stream.time_base);
    packet->stream_index = stream.index;
    write_packet(output, packet.get(), file);
}

// Copies the segment's video packets shifted by offset (in out's time base); returns where
// the segment ends, the next segment's offset.
std::int64_t copy_segment(const Segment& segment, AVFormatContext* output, const AVStream& out,
                          std::int64_t offset, const TempFile& file) {
    const AVStream& in = *segment.video;
    const std::int64_t start = in.start_time == AV_NOPTS_VALUE
                                   ? 0
                                   : av_rescale_q(in.start_time, in.time_base, out.time_base);
    std::int64_t end = offset;
    const AvPacketPtr packet = make_packet();
    while (read_packet(segment.input.get(), packet.get())) {
        if (packet->stream_index != in.index) continue;
        av_packet_rescale_ts(packet.get(), in.time_base, out.time_base);
        packet->pts += offset - start;
        packet->dts += offset - start;
        end = std::max(end, packet->pts + packet->duration);
        packet->stream_index = out.index;
        packet->pos = -1;
        write_packet(output, packet.get(), file);
    }
    return end;
}

}  // namespace

void concat_mp4(const std::vector<std::string>& inputs, const TempFile& file,
                const ConcatExtras& extras) {
    const std::vector<Segment> segments = open_segments(inputs);
    OutputContextPtr output = open_output(file, "mp4");
    const AVStream* video = add_video_stream(output.get(), *segments.front().video);
    const AVStream* captions = extras.subtitles.empty()
                                   ? nullptr
                                   : add_subtitle_stream(output.get(), extras.subtitle_language);
    add_chapters(output.get(), extras.chapters);
    write_header(output.get(), file, kMp4Options);
    for (const SubtitleCue& cue : extras.subtitles) write_cue(output.get(), *captions, cue, file);
    std::int64_t offset = 0;
    for (const Segment& segment : segments)
        offset = copy_segment(segment, output.get(), *video, offset, file);
    finish_output(output, file);
}

void concat_mp4(const std::vector<std::string>& inputs, const std::string& output,
                const ConcatExtras& extras) {
    TempFile file(output);
    concat_mp4(inputs, file, extras);
    file.commit();
}

}  // namespace render
