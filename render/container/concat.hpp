// Joins MP4 segments into one MP4 by stream copy (no re-encode), adding chapter markers, a
// mov_text caption track and the film's AAC track joined from its own segments; the segments of
// each kind must share codec parameters (same encoder settings).
#pragma once
#include <cstdint>
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

// One AAC segment (render/sound/aac_segment): its packets are the film's frames from first - lead.
struct ConcatSound {
    std::string path;
    std::int64_t first = 0, lead = 0;
};

// The film's sound, its segments in order. At each seam the track switches from one segment to
// the next at the latest lead frame both hold byte for byte (then the seam is exactly what one
// encoder wrote), else at the next segment's first frame. The track gets one edit list cutting
// the priming frame and ending at `samples`.
struct ConcatAudio {
    std::vector<ConcatSound> segments;
    std::int64_t samples = 0;  // the film's length at 48 kHz
    std::string language;      // ISO 639-2 of what it says (the film's); empty: none tagged
};

struct ConcatStats {
    int seams = 0, exact_seams = 0;  // of the sound track
};

// One mov_text caption track.
struct SubtitleTrack {
    std::string language = "eng";   // ISO 639-2
    std::vector<SubtitleCue> cues;  // in time order, not overlapping
};

struct ConcatExtras {
    std::vector<ConcatChapter> chapters;
    std::vector<SubtitleTrack> captions;  // one track each, in order; the first is the default
    ConcatAudio audio;                    // no segments: no sound track
};

// Writes the joined video into file's temporary path; the caller commits it, together with
// whatever must appear beside it (the captions). Without video inputs, only the sound (an M4A).
// Throws SystemError on I/O or libav failure (naming file's final path), when the segments'
// parameters differ, or when there is neither video nor sound.
ConcatStats concat_mp4(const std::vector<std::string>& inputs, const TempFile& file,
                       const ConcatExtras& extras = {});
// The same, renamed into place at output when complete.
ConcatStats concat_mp4(const std::vector<std::string>& inputs, const std::string& output,
                       const ConcatExtras& extras = {});

}  // namespace render
