// Joins MP4 segments into one MP4 by stream copy (no re-encode), adding chapter markers and a
// mov_text caption track; the segments must share codec parameters (same encoder settings).
#pragma once
#include <string>
#include <vector>

#include "render/sys/temp_file.hpp"

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

// Writes the joined video into file's temporary path; the caller commits it, together with
// whatever must appear beside it (the captions). Throws SystemError on I/O or libav failure
// (naming file's final path), or when the segments' video parameters differ.
void concat_mp4(const std::vector<std::string>& inputs, const TempFile& file,
                const ConcatExtras& extras = {});
// The same, renamed into place at output when complete.
void concat_mp4(const std::vector<std::string>& inputs, const std::string& output,
                const ConcatExtras& extras = {});

}  // namespace render
