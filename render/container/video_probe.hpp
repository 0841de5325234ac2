// Reads an MP4 back with libavformat/libavcodec: what a player would see (codec, size, colour
// tags, frame rate, frame count, chapters, subtitle tracks) and any frame decoded to RGB.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace render {

struct ProbedChapter {
    std::string title;
    double start_seconds = 0, end_seconds = 0;
};

struct ProbedCue {
    double start_seconds = 0, end_seconds = 0;
    std::string text;
};

struct ProbedSubtitles {
    std::string codec;            // "mov_text"
    std::string language;         // ISO 639-2, e.g. "eng"
    std::vector<ProbedCue> cues;  // non-empty samples only (empty ones fill gaps)
    bool is_default = false;      // marked as the track players show (AV_DISPOSITION_DEFAULT)
};

struct VideoInfo {
    std::string codec;  // "h264"
    int width = 0, height = 0;
    std::string pix_fmt;                                              // "yuv420p"
    std::string color_primaries, color_trc, colorspace, color_range;  // "bt709", ..., "tv"
    int fps_num = 0, fps_den = 1;
    std::int64_t frame_count = 0;  // packets of the video stream
    double duration_seconds = 0;   // of the video stream
    std::vector<ProbedChapter> chapters;
    std::vector<ProbedSubtitles> subtitles;
    std::string audio_language;  // ISO 639-2 of the sound track; empty: none, or untagged
};

// Throws SystemError when the file cannot be read or has no video stream.
VideoInfo probe_video(const std::string& path);

// Frame `index` (presentation order) as tightly packed RGB24, width * height * 3 bytes,
// converted with the BT.709 limited-range matrix the encoder tags.
std::vector<std::uint8_t> decode_frame_rgb(const std::string& path, std::int64_t index);

// Every video packet's payload in file order (tests compare stream copies byte for byte).
std::vector<std::vector<std::uint8_t>> video_packets(const std::string& path);

}  // namespace render
