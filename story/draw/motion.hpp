// Animations as values evaluated at t (STYLE.md "Motion"): fades, staggered entrances,
// half-morphs between two parameter states, and what a frame says at a morph (the shown state's
// figures). Nothing accumulates: each value is a pure function of t (or of a Morph).
#pragma once
#include <climits>
#include <limits>
#include <type_traits>
#include <vector>

#include "story/draw/box.hpp"
#include "story/time/easing.hpp"
#include "story/time/timeline.hpp"

namespace story {

inline constexpr double kEntrance = 0.5;      // s: STYLE.md entrances take 0.4-0.6 s
inline constexpr double kStaggerStep = 0.08;  // s between siblings: STYLE.md 60-120 ms
inline constexpr double kHold = 1.5;  // s a new number stays before the next change: STYLE.md

// An opacity (or any 0..1 progress) over time: 0 before `start`, eased (in-out cubic) to 1
// over `duration`; .out() adds the way back to 0. Where the two overlap, the lower wins.
//   const Fade batch = Fade::in(at(2.0)).out(at(3.5), 0.3);   ...   batch.at(t)
class Fade {
  public:
    static Fade in(double start, double duration = kEntrance);
    static Fade shown();  // 1 from the start (then .out())
    Fade& out(double start, double duration = kEntrance);
    double at(double t) const;

  private:
    Fade(double start, double duration) : in_at_(start), in_for_(duration) {}
    double in_at_, in_for_, out_at_ = std::numeric_limits<double>::infinity(), out_for_ = 0;
};

// Siblings entering one after another: sibling i starts fading in `step` s after sibling i - 1;
// siblings past `last` enter together with it, so a long row does not trail off.
struct Stagger {
    double start = 0, step = kStaggerStep, duration = kEntrance;
    int last = INT_MAX;
    double at(double t, int i) const;
    // The step shortened (never lengthened) so that `count` siblings all start within `total` s.
    Stagger within(double total, int count) const;
};

// Progress u (0..1, a morph's or any other) through its stretch [start, start + length]:
// 0 before, 1 after, linear between. Splits one morph into steps (slide, then fade in).
double within(double u, double start, double length);

// Half-morphs: what the old state drew fades out over the first half of a morph and what the new
// one draws fades in over the second, so the two never show at once (both 1/0 outside a morph).
double leaving(const Morph& m);   // 1 - 2u, down to 0 at halfway
double arriving(const Morph& m);  // 2u - 1, from 0 at halfway; 1 when nothing morphs
// The state whose picture shows (the old one until halfway), and its opacity, through 0 halfway.
int shown_state(const Morph& m);
double swap_alpha(const Morph& m);

// What a frame says at a morph (a figure, a setting, a word): the shown state's (Morph::shown),
// never a blend of the two, so every number on screen is the engine's for a configuration the
// film passes through. Geometry (boxes, points) slides instead.
template <class T>
const T& shown_of(const Morph& m, const T& from, const T& to) {
    return m.shown() == m.from ? from : to;
}
// A per-state value at a morph: a number (a figure, a count) is the shown state's; a box or a
// point slides between the two. The endpoints are the engine's, never guessed.
template <class T>
T morphed(const Morph& m, const std::vector<T>& per_state) {
    if constexpr (std::is_arithmetic_v<T>)
        return per_state[m.shown()];
    else
        return lerp(per_state[m.from], per_state[m.to], m.u);
}

// Adds items with their opacity multiplied by alpha clamped to [0, 1]; nothing when alpha <= 0.
// The one rule for drawing a group of items faded.
void add_items(Scene& s, std::vector<Item> items, double alpha);

}  // namespace story
