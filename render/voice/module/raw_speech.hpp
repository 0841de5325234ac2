// An engine's line as it comes out, before level.hpp's trimming and normalisation: PCM at the
// engine's own rate and each bookmarked word's time.
#pragma once
#include <vector>

namespace render::voice {

struct RawSpeech {
    std::vector<float> pcm;  // mono, [-1, 1]
    int rate = 0;            // samples per second
    // Seconds from the first sample, one per requested mark; NaN where the engine gave none
    // (recorded takes, a mark the engine dropped): placed in proportion to the text instead.
    std::vector<double> marks;
};

// The speed ratio at which an engine's voice speaks `wpm` words a minute, its own pace counted as
// 170 (Festival's HTS voices, about; Open JTalk's too, as Japanese has no spaces to count words
// by); 1 for wpm 0, the voice's own pace.
inline double speed_ratio(int wpm) { return wpm > 0 ? wpm / 170.0 : 1.0; }

}  // namespace render::voice
