// See ring_track.hpp.
#include "story/vocab/ring_track.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "story/time/easing.hpp"

namespace story::ring_track {
namespace {

// A card is sized by its slot on the ring, between these bounds; narrow cards use small labels.
constexpr double kCardPerSlotW = 0.45, kCardPerSlotH = 0.526;
constexpr Box kSmallestCard{0, 0, 96, 112}, kLargestCard{0, 0, 152, 172};

// The start (clockwise s) of each stretch of the stadium: the top straight's right half, the right
// half circle, the bottom straight, the left half circle, the top straight's left half.
constexpr double kStretches[] = {
    0, kHalf, kHalf + kArc, 3 * kHalf + kArc, 3 * kHalf + 2 * kArc, kPerimeter};
constexpr double kArcStep = 10;  // px between the points that draw a half circle

// The next point after s worth drawing along the outline: the end of a straight, or a short step
// along a half circle.
double next_vertex(double s) {
    const double base = std::floor(s / kPerimeter) * kPerimeter, local = s - base;
    for (int k = 0; k + 1 < static_cast<int>(std::size(kStretches)); ++k) {
        if (local >= kStretches[k + 1]) continue;
        const bool arc = k == 1 || k == 3;
        return base + (arc ? std::min(kStretches[k + 1], local + kArcStep) : kStretches[k + 1]);
    }
    return s + kArcStep;  // unreachable: local < kPerimeter
}

}  // namespace

Point on_ring(double s) {
    s = std::fmod(std::fmod(s, kPerimeter) + kPerimeter, kPerimeter);
    if (s < kHalf) return {kCx + s, kCy - kRadius};
    s -= kHalf;
    if (s < kArc)
        return {kCx + kHalf + kRadius * std::sin(s / kRadius),
                kCy - kRadius * std::cos(s / kRadius)};
    s -= kArc;
    if (s < 2 * kHalf) return {kCx + kHalf - s, kCy + kRadius};
    s -= 2 * kHalf;
    if (s < kArc)
        return {kCx - kHalf - kRadius * std::sin(s / kRadius),
                kCy + kRadius * std::cos(s / kRadius)};
    return {kCx - kHalf + (s - kArc), kCy - kRadius};
}

std::vector<Point> ring_points(double from, double to) {
    std::vector<Point> out{on_ring(from)};
    for (double s = from; s < to;) {
        s = std::min(to, next_vertex(s));
        out.push_back(on_ring(s));
    }
    return out;
}

double ring_s(int n, int i) { return kPerimeter * (i + 0.5) / n; }

Box card_box(int n, double s) {
    const double slot = kPerimeter / n;
    return box_around(on_ring(s), std::clamp(kCardPerSlotW * slot, kSmallestCard.w, kLargestCard.w),
                      std::clamp(kCardPerSlotH * slot, kSmallestCard.h, kLargestCard.h));
}

Box loaf_beside(const Box& card) {
    const double h = kLoafShare * card.h, y = card.cy() - h / 2;
    if (card.cx() < kCx) return {card.x - kLoafGap - kLoafW, y, kLoafW, h};
    return {card.right() + kLoafGap, y, kLoafW, h};
}

bool loaf_fits(int n) {
    return kPerimeter / std::max(1, n) >=
           card_box(n, 0).w + 2 * (kLoafGap + kLoafW) + kLoafLinkRoom;
}

Box with_strip(const Box& b, bool loaf) {
    const double spill = kMaxSpill * b.h;
    const Box card{b.x, b.y - spill, b.w, b.h + spill + kStripGap + kStripH};
    return loaf ? bounding({card, loaf_beside(b)}) : card;
}

double leave(const Box& b, double s, double limit, double margin) {
    const double dir = limit > s ? 1 : -1, last = (s + limit) / 2;
    constexpr double kProbe = 2;  // px per probe: exact enough for where a line starts
    while ((last - s) * dir > 0 && b.contains(on_ring(s), margin)) s += dir * kProbe;
    return s;
}

Point Span::at(double u) const { return on_ring(lerp(from, to, u)); }

RingLayout ring_layout(int n) {
    RingLayout out;
    for (int i = 0; i < n; ++i) {
        out.s.push_back(ring_s(n, i));
        out.cards.push_back(card_box(n, out.s.back()));
    }
    return out;
}

std::vector<Span> node_spans(const std::vector<double>& s, const std::vector<int>& node,
                             double slot, double gap) {
    const std::size_t n = std::min(s.size(), node.size());
    if (n == 0) return {};
    if (std::all_of(node.begin(), node.begin() + n, [&](int k) { return k == node.front(); }))
        return {{0, kPerimeter}};
    std::vector<Span> out;
    for (std::size_t first = 0; first < n;) {
        std::size_t last = first;
        while (last + 1 < n && node[last + 1] == node[first]) ++last;
        out.push_back({s[first] - slot / 2 + gap / 2, s[last] + slot / 2 - gap / 2});
        first = last + 1;
    }
    return out;
}

std::vector<Counts> replay(const engine::RingSchedule& ring) {
    std::vector<Counts> out{Counts(ring.n, std::vector<int>(ring.n, 1))};
    for (int step = 0; step < ring.steps(); ++step) {
        Counts next = out.back();
        for (const engine::ChunkTransfer& x : ring.transfers) {
            if (x.step != step) continue;
            const int sent = out.back()[x.src][x.chunk];
            next[x.dst][x.chunk] = x.gather ? sent : next[x.dst][x.chunk] + sent;
        }
        out.push_back(std::move(next));
    }
    return out;
}

RunPhase phase_of(const Run& run, double t) {
    if (!run.plays || t < run.start) return {};
    if (t >= run.end()) return {run.ring.steps(), 1, false};
    const double x = run.steps_at(t);
    const int step = std::min(static_cast<int>(x), run.ring.steps() - 1);
    const double local = x - step;
    return {step, std::min(1.0, local / kMoveShare), local < kMoveShare};
}

const Counts& counts_at(const Run& run, double t) {
    const RunPhase p = phase_of(run, t);
    if (p.step < 0) return run.counts.front();
    if (p.step >= run.ring.steps()) return run.counts.back();
    return run.counts[p.moving ? p.step : p.step + 1];
}

}  // namespace story::ring_track
