// Time is an integer frame index; seconds are derived (t = f / fps), never accumulated.
#pragma once
#include <cmath>

namespace story {

// Frames a span of `seconds` occupies at `fps` (nearest frame, so 1 s at 24 fps is 24 frames).
inline int frame_count(double seconds, int fps) {
    return static_cast<int>(std::lround(seconds * fps));
}
// The frame of a moment `seconds` into a chapter `frames` long: the nearest, at most `frames`.
inline int chapter_frame(double seconds, int frames, int fps) {
    const int f = frame_count(seconds, fps);
    return f < frames ? f : frames;
}
inline double time_of_frame(int frame, int fps) { return static_cast<double>(frame) / fps; }
// The frame on screen `seconds` in: the last f with time_of_frame(f, fps) <= seconds.
inline int frame_at(double seconds, int fps) {
    // floor(t * fps) can land one off either way in floating point; time_of_frame decides.
    const int f = static_cast<int>(std::floor(seconds * fps));
    if (time_of_frame(f + 1, fps) <= seconds) return f + 1;
    if (time_of_frame(f, fps) > seconds) return f - 1;
    return f;
}

}  // namespace story
