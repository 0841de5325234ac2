// A chapter's share of the film's AAC track, encoded on its own yet joinable without a gap or a
// click: every chapter is cut on the film's global grid of 1024-sample AAC frames, its encoder is
// fed some of the neighbours' mix on each side (so its first frames overlap and cancel with the
// previous chapter's last ones), and it keeps its view of the previous chapter's last frames, so
// the film can be joined where both encoders wrote the very same frame (render/container/concat).
#pragma once
#include <cstdint>
#include <string>

#include "render/sound/audio_mix.hpp"
#include "render/sys/temp_file.hpp"

namespace render {

inline constexpr std::int64_t kAacFrame = 1024;  // samples per AAC-LC frame

// The film's AAC frame j decodes to film samples [1024 j, 1024 (j + 1)); frame -1 is the
// encoder's priming (cut by the film's edit list).
struct AacWindow {
    std::int64_t first = 0, end = 0;              // owned frames [first, end)
    std::int64_t lead = 0;                        // frames before `first` kept for the join
    std::int64_t input_begin = 0, input_end = 0;  // film samples the encoder is fed
    bool operator==(const AacWindow&) const = default;
};

// The frames whose first sample lies in [begin, end) (the one starting at sample 0 also owns the
// priming frame), fed with 144 frames of the neighbours' mix before and 24 after (within the
// film), keeping the last 72 of the frames before as the lead.
AacWindow aac_window(std::int64_t begin, std::int64_t end, std::int64_t film_samples);

// Mixes the window's input, encodes it and writes frames [first - lead, end) to file (an .m4a,
// packets stamped from 0), polling cancel (if any). Returns the number of packets. Throws
// SystemError.
std::int64_t write_aac_segment(const FilmAudio& audio, const AacWindow& window,
                               const TempFile& file, const CancelToken* cancel = nullptr);

// The number of audio packets in a segment file; -1 when it cannot be read.
std::int64_t audio_packet_count(const std::string& path);

}  // namespace render
