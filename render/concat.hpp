// Joins MP4 segments into one MP4 by stream copy (no re-encode), adding chapter markers and a
// mov_text caption track; the segments must share codec parameters (same encoder settings).
#pragma once
#include <string>
#include <vector>

namespace render {

struct ConcatChapter {
    std::string title;
    double start_seconds = 0, end_seconds = 0;
};

struct SubtitleCue {
    double start_seconds = 0, end_seconds = 0;
    std::string text;  // UTF-8
};

struct ConcatExtras {
    std::vector<ConcatChapter> chapters;
    std::vector<SubtitleCue> subtitles;     // in time order, not overlapping
    std::string subtitle_language = "eng";  // ISO 639-2
};

// Writes output through a temporary file in its directory (renamed when complete). Throws
// SystemError on I/O or libav failure, or when the segments' video parameters differ.
void concat_mp4(const std::vector<std::string>& inputs, const std::string& output,
                const ConcatExtras& extras = {});

}  // namespace render
