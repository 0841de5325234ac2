// Stream-copy concatenation: video segments shifted end to end, the sound's AAC frames stamped
// on the film's grid, both interleaved by time; the H.264 and AAC bytes are untouched.
#include "render/container/concat.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <deque>
#include <new>
#include <optional>

#include "render/av/av.hpp"
#include "render/sound/aac_segment.hpp"
#include "render/sys/error.hpp"
#include "render/sys/temp_file.hpp"

namespace render {
namespace {

constexpr AVRational kMilliseconds{1, 1000};

struct Segment {
    InputContextPtr input;
    AVStream* stream = nullptr;  // its video (or sound) stream
};

bool same_extradata(const AVCodecParameters& a, const AVCodecParameters& b) {
    return a.extradata_size == b.extradata_size &&
           (a.extradata_size == 0 || std::memcmp(a.extradata, b.extradata, a.extradata_size) == 0);
}

bool same_video(const AVCodecParameters& a, const AVCodecParameters& b) {
    return a.codec_id == b.codec_id && a.width == b.width && a.height == b.height &&
           a.format == b.format && same_extradata(a, b);
}

bool same_audio(const AVCodecParameters& a, const AVCodecParameters& b) {
    return a.codec_id == b.codec_id && a.sample_rate == b.sample_rate &&
           a.ch_layout.nb_channels == b.ch_layout.nb_channels && same_extradata(a, b);
}

std::vector<Segment> open_segments(const std::vector<std::string>& paths, AVMediaType type) {
    const bool video = type == AVMEDIA_TYPE_VIDEO;
    std::vector<Segment> segments;
    for (const std::string& path : paths) {
        Segment s{open_input(path)};
        const int index = av_find_best_stream(s.input.get(), type, -1, -1, nullptr, 0);
        if (index < 0)
            throw SystemError("concat: " + path + " has no " + (video ? "video" : "audio") +
                              " stream");
        s.stream = s.input->streams[index];
        if (!segments.empty()) {
            const AVCodecParameters& first = *segments.front().stream->codecpar;
            if (!(video ? same_video : same_audio)(first, *s.stream->codecpar))
                throw SystemError("concat: " + path + " was encoded with different " +
                                  (video ? "video" : "audio") + " parameters than " +
                                  paths.front());
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

AVStream* add_copied_stream(AVFormatContext* output, const AVStream& source) {
    AVStream* st = new_stream(output);
    av_check(avcodec_parameters_copy(st->codecpar, source.codecpar),
             "cannot copy stream parameters");
    st->codecpar->codec_tag = 0;  // let the muxer pick the MP4 tag
    st->time_base = source.time_base;
    st->avg_frame_rate = source.avg_frame_rate;
    return st;
}

// The film's AAC track: the segments' parameters, the priming the film's edit list cuts, tagged
// with the language it speaks.
AVStream* add_audio_stream(AVFormatContext* output, const AVStream& source,
                           const std::string& language) {
    AVStream* st = add_copied_stream(output, source);
    st->codecpar->initial_padding = kAacFrame;
    st->time_base = AVRational{1, kAudioRate};
    if (!language.empty()) av_dict_set(&st->metadata, "language", language.c_str(), 0);
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

// The muxer enables the first track of each kind that none marked default, so the first caption
// track is the one players show; it is marked default too, as players read that.
AVStream* add_subtitle_stream(AVFormatContext* output, const std::string& language, bool first) {
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
    if (first) st->disposition |= AV_DISPOSITION_DEFAULT;
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

// One output stream's packets, read from its segments one after another, already in the output
// stream's time base.
class PacketRun {
  public:
    virtual ~PacketRun() = default;
    // Loads the next packet into packet(); false at the end.
    virtual bool advance() = 0;
    AVPacket* packet() const { return packet_.get(); }
    const AVStream& out() const { return out_; }

  protected:
    PacketRun(std::vector<Segment> segments, const AVStream& out)
        : segments_(std::move(segments)), out_(out) {}
    // The current segment's next packet of its stream, moving on to the next segment at the
    // end of one (calling on_next_segment); false after the last.
    bool read_next() {
        while (index_ < segments_.size()) {
            const Segment& s = segments_[index_];
            if (read_packet(s.input.get(), packet_.get())) {
                if (packet_->stream_index != s.stream->index) continue;
                av_packet_rescale_ts(packet_.get(), s.stream->time_base, out_.time_base);
                packet_->stream_index = out_.index;
                packet_->pos = -1;
                return true;
            }
            if (++index_ < segments_.size()) on_next_segment();
        }
        return false;
    }
    virtual void on_next_segment() {}
    const Segment& segment() const { return segments_[index_]; }

  private:
    std::vector<Segment> segments_;
    std::size_t index_ = 0;
    const AVStream& out_;
    AvPacketPtr packet_ = make_packet();
};

// Video packets shifted so that each segment starts where the previous one ended: timestamps
// stay monotonic and the H.264 bytes are untouched.
class VideoRun final : public PacketRun {
  public:
    VideoRun(std::vector<Segment> segments, const AVStream& out)
        : PacketRun(std::move(segments), out) {
        on_next_segment();
    }
    bool advance() override {
        if (!read_next()) return false;
        packet()->pts += offset_ - start_;
        packet()->dts += offset_ - start_;
        end_ = std::max(end_, packet()->pts + packet()->duration);
        return true;
    }

  private:
    void on_next_segment() override {
        offset_ = end_;
        const AVStream& in = *segment().stream;
        start_ = in.start_time == AV_NOPTS_VALUE
                     ? 0
                     : av_rescale_q(in.start_time, in.time_base, out().time_base);
    }
    std::int64_t offset_ = 0, start_ = 0, end_ = 0;
};

// The AAC segments' packets are the film's frames -1 (priming), 0, 1, ...: frame j is stamped
// 1024 j, and the last one lasts only to the film's end, so the track's edit list runs from
// sample 0 to exactly `samples`. The last few frames are held back until the next segment's lead
// has been compared with them.
class AudioRun final : public PacketRun {
  public:
    AudioRun(std::vector<Segment> segments, std::vector<ConcatSound> sounds, const AVStream& out,
             std::int64_t samples, ConcatStats& stats)
        : PacketRun(std::move(segments), out),
          sounds_(std::move(sounds)),
          stats_(stats),
          samples_(samples),
          frames_((samples + kAacFrame - 1) / kAacFrame + 1) {
        for (const ConcatSound& s : sounds_) hold_ = std::max(hold_, s.lead);
        start_segment();
    }

    bool advance() override {
        while (!ended_ && static_cast<std::int64_t>(held_.size()) <= hold_) pull();
        if (held_.empty()) {
            if (next_ != frames_ - 1)
                throw SystemError("concat: the sound segments hold " + std::to_string(next_ + 1) +
                                  " AAC frames; the film needs " + std::to_string(frames_));
            return false;
        }
        Held& h = held_.front();
        if (h.frame != next_ || h.frame >= frames_ - 1)
            throw SystemError("concat: the sound segments do not hold the film's AAC frame " +
                              std::to_string(next_));
        av_packet_move_ref(packet(), h.packet.get());
        held_.pop_front();
        const std::int64_t pts = next_ * kAacFrame;
        const std::int64_t duration = next_ == frames_ - 2 ? samples_ - pts : kAacFrame;
        const AVRational samples{1, kAudioRate};
        packet()->pts = packet()->dts = av_rescale_q(pts, samples, out().time_base);
        packet()->duration = av_rescale_q(duration, samples, out().time_base);
        packet()->stream_index = out().index;
        ++next_;
        return true;
    }

  private:
    struct Held {
        std::int64_t frame;
        AvPacketPtr packet;
    };

    void start_segment() {
        const ConcatSound& s = sounds_[segment_];
        frame_ = s.first - s.lead;
        lead_.clear();
    }
    void on_next_segment() override {
        join();
        ++segment_;
        start_segment();
    }

    // Reads one packet into held_ (or lead_), or notes the end.
    void pull() {
        if (!read_next()) {
            join();
            ended_ = true;
            return;
        }
        Held h{frame_++, make_packet()};
        av_packet_move_ref(h.packet.get(), packet());
        if (h.frame < sounds_[segment_].first) {
            lead_.push_back(std::move(h));
            return;
        }
        join();
        held_.push_back(std::move(h));
    }

    // Joins the segment's lead (if not done yet) onto the held frames of the one before.
    void join() {
        if (lead_.empty()) return;
        ++stats_.seams;
        for (auto l = lead_.rbegin(); l != lead_.rend(); ++l) {
            const auto same = std::find_if(held_.begin(), held_.end(), [&](const Held& h) {
                return h.frame == l->frame && h.packet->size == l->packet->size &&
                       std::memcmp(h.packet->data, l->packet->data, h.packet->size) == 0;
            });
            if (same == held_.end()) continue;
            ++stats_.exact_seams;
            held_.erase(std::next(same), held_.end());
            for (auto after = l.base(); after != lead_.end(); ++after)
                held_.push_back(std::move(*after));
            break;
        }
        lead_.clear();
    }

    std::vector<ConcatSound> sounds_;
    ConcatStats& stats_;
    std::int64_t samples_, frames_;
    std::int64_t hold_ = 0;    // frames held back: the longest lead
    std::size_t segment_ = 0;  // the segment being read
    std::int64_t frame_ = 0;   // the film frame of its next packet
    std::int64_t next_ = -1;   // the next frame to write
    std::deque<Held> held_;    // read, not written yet
    std::vector<Held> lead_;   // the segment's lead frames, until joined
    bool ended_ = false;
};

// Writes the runs' packets interleaved by decoding time, as a player reads them.
void write_interleaved(AVFormatContext* output, std::vector<PacketRun*> runs,
                       const TempFile& file) {
    std::erase_if(runs, [](PacketRun* r) { return !r->advance(); });
    while (!runs.empty()) {
        auto earliest = std::min_element(runs.begin(), runs.end(), [](PacketRun* a, PacketRun* b) {
            return av_compare_ts(a->packet()->dts, a->out().time_base, b->packet()->dts,
                                 b->out().time_base) < 0;
        });
        write_packet(output, (*earliest)->packet(), file);
        if (!(*earliest)->advance()) runs.erase(earliest);
    }
}

}  // namespace

ConcatStats concat_mp4(const std::vector<std::string>& inputs, const TempFile& file,
                       const ConcatExtras& extras) {
    if (inputs.empty() && extras.audio.segments.empty())
        throw SystemError("concat: no input segments");
    std::vector<Segment> video_segments = open_segments(inputs, AVMEDIA_TYPE_VIDEO);
    std::vector<std::string> sound_paths;
    for (const ConcatSound& s : extras.audio.segments) sound_paths.push_back(s.path);
    std::vector<Segment> audio_segments = open_segments(sound_paths, AVMEDIA_TYPE_AUDIO);
    // Sound alone is an M4A: the same file with the brand players expect of one.
    OutputContextPtr output = open_output(file, inputs.empty() ? "ipod" : "mp4");
    const AVStream* video =
        inputs.empty() ? nullptr : add_copied_stream(output.get(), *video_segments.front().stream);
    const AVStream* audio =
        audio_segments.empty()
            ? nullptr
            : add_audio_stream(output.get(), *audio_segments.front().stream, extras.audio.language);
    std::vector<const AVStream*> captions;
    for (const SubtitleTrack& track : extras.captions)
        captions.push_back(add_subtitle_stream(output.get(), track.language, captions.empty()));
    add_chapters(output.get(), extras.chapters);
    write_header(output.get(), file, kMp4Options);
    for (std::size_t i = 0; i < captions.size(); ++i)
        for (const SubtitleCue& cue : extras.captions[i].cues)
            write_cue(output.get(), *captions[i], cue, file);
    ConcatStats stats;
    std::optional<VideoRun> video_run;
    std::optional<AudioRun> audio_run;
    std::vector<PacketRun*> runs;
    if (video) runs.push_back(&video_run.emplace(std::move(video_segments), *video));
    if (audio)
        runs.push_back(&audio_run.emplace(std::move(audio_segments), extras.audio.segments, *audio,
                                          extras.audio.samples, stats));
    write_interleaved(output.get(), runs, file);
    finish_output(output, file);
    return stats;
}

ConcatStats concat_mp4(const std::vector<std::string>& inputs, const std::string& output,
                       const ConcatExtras& extras) {
    TempFile file(output);
    const ConcatStats stats = concat_mp4(inputs, file, extras);
    file.commit();
    return stats;
}

}  // namespace render
