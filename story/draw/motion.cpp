// Fades, staggers, half-morphs and counting; see motion.hpp.
#include "story/draw/motion.hpp"

#include <algorithm>
#include <cmath>

namespace story {

Fade Fade::in(double start, double duration) { return {start, duration}; }

Fade Fade::shown() { return {-std::numeric_limits<double>::infinity(), 1}; }

Fade& Fade::out(double start, double duration) {
    out_at_ = start;
    out_for_ = duration;
    return *this;
}

// 1 - progress is exactly 1 before the fade-out starts (also when there is none: t - inf).
double Fade::at(double t) const {
    return std::min(progress(t, in_at_, in_for_), 1 - progress(t, out_at_, out_for_));
}

double Stagger::at(double t, int i) const {
    return progress(t, start + step * std::min(i, last), duration);
}

Stagger Stagger::within(double total, int count) const {
    Stagger s = *this;
    if (count > 0) s.step = std::min(step, total / count);
    return s;
}

double within(double u, double start, double length) {
    return std::clamp((u - start) / length, 0.0, 1.0);
}

double leaving(const Morph& m) { return std::max(0.0, 1 - 2 * m.u); }
double arriving(const Morph& m) { return std::max(0.0, 2 * m.u - 1); }
int shown_state(const Morph& m) { return m.shown(); }
double swap_alpha(const Morph& m) { return m.from == m.to ? 1 : std::abs(2 * m.u - 1); }

void add_items(Scene& s, std::vector<Item> items, double alpha) {
    if (alpha <= 0) return;
    for (Item& item : items) s.add(std::move(item.shape), item.opacity * std::min(alpha, 1.0));
}

}  // namespace story
