// RAII handles for the libav objects we use, and the one place libav error codes become
// render::SystemError (with av_strerror text), so no other file frees or checks by hand.
#pragma once
#include <memory>
#include <string>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>
}

namespace render {

// Throws SystemError("<what>: <libav message>") when ret < 0; returns ret otherwise.
int av_check(int ret, const char* what);

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

// An MP4 muxer writing to path (whatever its extension), bit-exact: no encoder version string
// or creation time, so identical streams give identical bytes.
OutputContextPtr open_mp4_output(const std::string& path);

// Writes the header with +faststart (the index goes before the media data on the trailer).
void write_mp4_header(AVFormatContext* output);

// A bit-exact muxer of the named format ("webm", "gif") writing to path, whatever its extension.
OutputContextPtr open_output(const std::string& path, const char* format);

}  // namespace render
