// RAII handles for the libav objects we use, and the one place libav error codes become
// render::SystemError (with av_strerror text), so no other file frees or checks by hand.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "render/sys/temp_file.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>
}

namespace render {

// Throws SystemError("<what>: <libav message>") when ret < 0; returns ret otherwise.
int av_check(int ret, const std::string& what);

struct InputContextDeleter {
    void operator()(AVFormatContext* c) const { avformat_close_input(&c); }
};
// Closes the output file (if open) before freeing the context; it never writes a trailer.
struct OutputContextDeleter {
    void operator()(AVFormatContext* c) const {
        if (!(c->oformat->flags & AVFMT_NOFILE)) avio_closep(&c->pb);
        avformat_free_context(c);
    }
};
struct CodecContextDeleter {
    void operator()(AVCodecContext* c) const { avcodec_free_context(&c); }
};
struct AvFrameDeleter {
    void operator()(AVFrame* f) const { av_frame_free(&f); }
};
struct AvPacketDeleter {
    void operator()(AVPacket* p) const { av_packet_free(&p); }
};
struct SwsDeleter {
    void operator()(SwsContext* s) const { sws_freeContext(s); }
};

using InputContextPtr = std::unique_ptr<AVFormatContext, InputContextDeleter>;
using OutputContextPtr = std::unique_ptr<AVFormatContext, OutputContextDeleter>;
using CodecContextPtr = std::unique_ptr<AVCodecContext, CodecContextDeleter>;
using AvFramePtr = std::unique_ptr<AVFrame, AvFrameDeleter>;
using AvPacketPtr = std::unique_ptr<AVPacket, AvPacketDeleter>;
using SwsPtr = std::unique_ptr<SwsContext, SwsDeleter>;

AvFramePtr make_frame();
AvPacketPtr make_packet();

// Opens path for demuxing and reads stream info.
InputContextPtr open_input(const std::string& path);

// Reads the next packet into packet (dropping what it held); false at the end of the file.
bool read_packet(AVFormatContext* input, AVPacket* packet);

// "cannot write <final path>": how every failed write of an output names it (the temporary
// file's name would mean nothing to the user).
std::string write_failure(const TempFile& file);

using MuxerOptions = std::vector<std::pair<std::string, std::string>>;
// Every MP4 we write: the index goes before the media data (moved there on the trailer).
inline const MuxerOptions kMp4Options = {{"movflags", "+faststart"}};

// A bit-exact muxer of the named format ("mp4", "webm", "gif") writing to the temporary file:
// no encoder version string or creation time, so identical streams give identical bytes.
OutputContextPtr open_output(const TempFile& file, const char* format);

// Writes the header with the muxer's options; a failure names the output.
void write_header(AVFormatContext* output, const TempFile& file, const MuxerOptions& options);

// Writes one packet; a failure (a full disk) names the output.
void write_packet(AVFormatContext* output, AVPacket* packet, const TempFile& file);

// Writes the trailer and closes the file, checking both (the last buffered bytes reach the disk
// only on close), then frees the muxer. The caller renames the file into place afterwards.
void finish_output(OutputContextPtr& output, const TempFile& file);

}  // namespace render
