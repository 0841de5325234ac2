// The ring all-reduce's track: a stadium (two straights, two half circles) around the middle of
// the picture, the ranks' places and cards along it, the stretches links and nodes take on it;
// and the engine's schedule as the ring plays it (the chunks summed at each step, its timing).
#pragma once
#include <algorithm>
#include <numbers>
#include <vector>

#include "engine/comm.hpp"
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
// Beside each card, on its outer side (left of the picture's centre line, or right), the model's
// loaf copied whole (story/vocab/loaf.hpp): kLoafW wide, kLoafShare of the card's height, kLoafGap
// from it. Drawn where a ring of n leaves room between cards for it and a link (loaf_fits).
inline constexpr double kLoafW = 22, kLoafGap = 6, kLoafShare = 0.62, kLoafLinkRoom = 40;
Box loaf_beside(const Box& card);
bool loaf_fits(int n);
// The card with its overflow above, its strip below and its loaf beside (where drawn), for links
// to keep clear of.
Box with_strip(const Box& b, bool loaf);
// Walking the outline from a card's centre s towards `limit`, where it leaves the card's box grown
// by margin (at most halfway to limit, so two neighbours never claim the same stretch).
double leave(const Box& b, double s, double limit, double margin);

// A link's stretch of the outline, from where it leaves one card to where it meets the next.
struct Span {
    double from = 0, to = 0;  // s along the ring, clockwise
    Point at(double u) const;
};

// The stretches of the outline the ring's nodes take, behind their cards: each run of consecutive
// ranks on one node (node[i], rank i at s[i]) from half a slot before its first rank to half a slot
// after its last, less half of `gap` at either end. A ring within one node takes the whole outline.
std::vector<Span> node_spans(const std::vector<double>& s, const std::vector<int>& node,
                             double slot, double gap);

// One state's ring, laid out once: each rank's place on the outline and its card.
struct RingLayout {
    std::vector<double> s;
    std::vector<Box> cards;
};
RingLayout ring_layout(int n);

// Contributions summed into each chunk of each rank's buffer: counts[step][rank][chunk],
// replaying the engine's schedule (reduce-scatter adds, all-gather copies).
using Counts = std::vector<std::vector<int>>;
std::vector<Counts> replay(const engine::RingSchedule& ring);

// One playing of the all-reduce: the engine's schedule for this state's N, and when it runs.
struct Run {
    engine::RingSchedule ring;
    std::vector<Counts> counts;
    std::vector<int> node;       // node of each rank (engine layout), to tell NVLink from network
    double start = 0, step = 0;  // the reduce-scatter's
    double gather = 0, gather_step = 0;  // the all-gather's
    bool plays = false;
    int half() const { return ring.steps() / 2; }
    double end() const { return gather + gather_step * half(); }
    // Steps done at t (fractional), before the start 0.
    double steps_at(double t) const {
        if (t < gather) return std::max(0.0, (t - start) / step);
        return half() + (t - gather) / gather_step;
    }
};

// Where the ring stands at t: which step, how far the chunks have travelled.
struct RunPhase {
    int step = -1;    // -1: before the first step; steps(): finished
    double move = 0;  // linear progress of the chunks on the links, 0..1
    bool moving = false;
};
// The run's phase at t: of each step the chunks travel kMoveShare, then settle.
inline constexpr double kMoveShare = 0.7;
RunPhase phase_of(const Run& run, double t);
// Counts drawn at t: a chunk joins its new card once it has arrived.
const Counts& counts_at(const Run& run, double t);

}  // namespace story::ring_track
