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

}  // namespace render::voice
