// Time is an integer frame index; seconds are derived (t = f / fps), never accumulated.
#pragma once
#include <cmath>

namespace story {

// Frames a span of `seconds` occupies at `fps` (nearest frame, so 1 s at 24 fps is 24 frames).
inline int frame_count(double seconds, int fps) {
    return static_cast<int>(std::lround(seconds * fps));
}
inline double time_of_frame(int frame, int fps) { return static_cast<double>(frame) / fps; }

}  // namespace story
