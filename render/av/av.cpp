// Opening, checking and header-writing helpers shared by the MP4 sink, concat and the probe.
#include "render/av/av.hpp"

#include <new>

extern "C" {
#include <libavutil/error.h>
#include <libavutil/log.h>
}

#include "render/sys/error.hpp"

namespace render {

int av_check(int ret, const std::string& what) {
    if (ret >= 0) return ret;
    char message[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(ret, message, sizeof message);
    throw SystemError(what + ": " + message);
}

AvFramePtr make_frame() {
    AvFramePtr f(av_frame_alloc());
    if (!f) throw std::bad_alloc();
    return f;
}

AvPacketPtr make_packet() {
    AvPacketPtr p(av_packet_alloc());
    if (!p) throw std::bad_alloc();
    return p;
}

namespace {

// x264 and the muxer log statistics at info level; on stderr they would break the progress
// bar, and every failure reaches the caller as a SystemError anyway.
void quiet_libav_logs() {
    static const bool once = (av_log_set_level(AV_LOG_ERROR), true);
    (void)once;
}

}  // namespace

InputContextPtr open_input(const std::string& path) {
    quiet_libav_logs();
    AVFormatContext* raw = nullptr;
    av_check(avformat_open_input(&raw, path.c_str(), nullptr, nullptr),
             ("cannot open " + path).c_str());
    InputContextPtr input(raw);
    av_check(avformat_find_stream_info(input.get(), nullptr),
             ("cannot read stream info of " + path).c_str());
    return input;
}

bool read_packet(AVFormatContext* input, AVPacket* packet) {
    av_packet_unref(packet);
    const int ret = av_read_frame(input, packet);
    if (ret == AVERROR_EOF) return false;
    av_check(ret, "cannot read a packet");
    return true;
}

std::string write_failure(const TempFile& file) { return "cannot write " + file.final_path(); }

void write_header(AVFormatContext* output, const TempFile& file, const MuxerOptions& options) {
    AVDictionary* dict = nullptr;
    for (const auto& [key, value] : options) av_dict_set(&dict, key.c_str(), value.c_str(), 0);
    const int ret = avformat_write_header(output, &dict);
    av_dict_free(&dict);
    av_check(ret, write_failure(file));
}

OutputContextPtr open_output(const TempFile& file, const char* format) {
    quiet_libav_logs();
    AVFormatContext* raw = nullptr;
    av_check(avformat_alloc_output_context2(&raw, nullptr, format, file.path().c_str()),
             std::string("cannot create the ") + format + " muxer");
    OutputContextPtr output(raw);
    output->flags |= AVFMT_FLAG_BITEXACT;  // no version strings, dates or random UIDs
    av_check(avio_open(&output->pb, file.path().c_str(), AVIO_FLAG_WRITE), write_failure(file));
    return output;
}

void write_packet(AVFormatContext* output, AVPacket* packet, const TempFile& file) {
    av_check(av_interleaved_write_frame(output, packet), write_failure(file));
}

void finish_output(OutputContextPtr& output, const TempFile& file) {
    av_check(av_write_trailer(output.get()), write_failure(file));
    av_check(avio_closep(&output->pb), write_failure(file));
    output.reset();
}

}  // namespace render
