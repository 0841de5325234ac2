// Easing curves on [0, 1] -> [0, 1] (clamped): linear, cubic, and the smooth family.
#pragma once

namespace story {

enum class Ease { linear, in_cubic, out_cubic, in_out_cubic, smoothstep, smootherstep, smooth };

double ease(Ease e, double u);

// Progress of an animation that starts at `start` and lasts `duration`, eased; 0 before, 1 after.
double progress(double t, double start, double duration, Ease e = Ease::in_out_cubic);

inline double lerp(double a, double b, double u) { return a + (b - a) * u; }

}  // namespace story
