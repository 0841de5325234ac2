// The ring all-reduce's track: a stadium (two straights, two half circles) around the middle of
// the picture, the ranks' places and cards along it, and the stretches links take between them.
#pragma once
#include <numbers>
#include <vector>

#include "story/draw/box.hpp"
#include "story/scene/layout.hpp"

namespace story::ring_track {

inline constexpr double kCx = frame::kWidth / 2, kCy = 570, kRadius = 225, kHalf = 500;
inline constexpr double kArc = std::numbers::pi * kRadius;
inline constexpr double kPerimeter = 4 * kHalf + 2 * kArc;
// A card's overflow drawn above it, as a fraction of its height.
inline constexpr double kMaxSpill = 0.2;
// Each card's gradient buffer, a strip of N cells under the card.
inline constexpr double kStripGap = 6, kStripH = 24, kStripInset = 4;

// Clockwise from the top centre, s along the stadium's outline.
Point on_ring(double s);
// The outline from s = from to s = to (clockwise, to >= from), as a polyline.
std::vector<Point> ring_points(double from, double to);
// Rank i of n sits half a slot past the top centre, so the ring is mirror-symmetric.
double ring_s(int n, int i);
// The card of a ring of n at s: sized by its slot, between a smallest and a largest card.
Box card_box(int n, double s);
// The card with its overflow above and its strip below, for links to keep clear of.
Box with_strip(const Box& b);
// Walking the outline from a card's centre s towards `limit`, where it leaves the card's box grown
// by margin (at most halfway to limit, so two neighbours never claim the same stretch).
double leave(const Box& b, double s, double limit, double margin);

// A link's stretch of the outline, from where it leaves one card to where it meets the next.
struct Span {
    double from = 0, to = 0;  // s along the ring, clockwise
    Point at(double u) const;
};

// One state's ring, laid out once: each rank's place on the outline and its card.
struct RingLayout {
    std::vector<double> s;
    std::vector<Box> cards;
};
RingLayout ring_layout(int n);

}  // namespace story::ring_track
