// Easing functions (Penner's cubics; smoothstep/smootherstep; Manim's sigmoid "smooth").
#include "story/time/easing.hpp"

#include <algorithm>
#include <cmath>

namespace story {

namespace {

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// Manim's `smooth` (inflection 10), rescaled so it maps 0 -> 0 and 1 -> 1 exactly.
double manim_smooth(double u) {
    constexpr double k = 10.0;
    const double lo = sigmoid(-k / 2), hi = sigmoid(k / 2);
    return std::clamp((sigmoid(k * (u - 0.5)) - lo) / (hi - lo), 0.0, 1.0);
}

}  // namespace

double ease(Ease e, double u) {
    u = std::clamp(u, 0.0, 1.0);
    switch (e) {
        case Ease::linear:
            return u;
        case Ease::in_cubic:
            return u * u * u;
        case Ease::out_cubic:
            return 1 - std::pow(1 - u, 3);
        case Ease::in_out_cubic:
            return u < 0.5 ? 4 * u * u * u : 1 - std::pow(-2 * u + 2, 3) / 2;
        case Ease::smoothstep:
            return u * u * (3 - 2 * u);
        case Ease::smootherstep:
            return u * u * u * (u * (6 * u - 15) + 10);
        case Ease::smooth:
            return manim_smooth(u);
    }
    return u;
}

double progress(double t, double start, double duration, Ease e) {
    if (duration <= 0) return t >= start ? 1.0 : 0.0;
    return ease(e, (t - start) / duration);
}

}  // namespace story
