// Walls of tiles for many cards; see card_wall.hpp.
#include "story/vocab/card_wall.hpp"

#include <algorithm>
#include <cmath>

namespace story {
namespace {

constexpr double kAspect = 1.2;   // a tile's height over its width
constexpr double kMaxTileW = 96;  // no wider than this, however few
constexpr double kInset = 3;      // the stack inside the outline

double gap_for(double tile_w) { return std::clamp(tile_w * 0.14, 3.0, 10.0); }

struct Grid {
    int cols = 1, rows = 1;
    double w = 0, gap = 0;
};

// The largest tiles a cols x rows wall in area holds, with a gap sized for a first estimate of
// them (so the tiles and the gaps it is laid out with are the ones that fit).
Grid sized(const Box& area, int cols, int rows) {
    const double estimate = std::min(area.w / cols, area.h / rows / kAspect);
    const double gap = gap_for(estimate);
    const double w = std::min({(area.w - gap * (cols - 1)) / cols,
                               (area.h - gap * (rows - 1)) / rows / kAspect, kMaxTileW});
    return {cols, rows, w, gap};
}

Grid grid_for(const Box& area, int n) {
    Grid best;
    for (int rows = 1; rows <= n; ++rows) {
        const int cols = (n + rows - 1) / rows;
        const Grid g = sized(area, cols, rows);
        if (g.w > best.w) best = g;
        if (cols == 1) break;
    }
    return best;
}

}  // namespace

Wall wall_of(long long cards) {
    cards = std::max(1LL, cards);
    const long long per = (cards + kMostTiles - 1) / kMostTiles;
    return {static_cast<int>((cards + per - 1) / per), static_cast<int>(per)};
}

WallGrid::WallGrid(const Box& area, int n) : area_(area) {
    const Grid g = grid_for(area, n);
    cols_ = g.cols;
    rows_ = (n + g.cols - 1) / g.cols;  // as many as it needs
    w_ = g.w;
    gap_ = g.gap;
}

Box WallGrid::tile(int i) const {
    const double h = w_ * kAspect;
    const double top = area_.y + area_.h - (rows_ * h + gap_ * (rows_ - 1));
    return {area_.x + (i % cols_) * (w_ + gap_), top + (i / cols_) * (h + gap_), w_, h};
}

void add_tile(std::vector<Item>& out, const Palette& p, const Box& tile, double capacity,
              const std::vector<MemorySegment>& stack) {
    const double radius = std::min(6.0, tile.w / 8);
    out.push_back(Item{Rect{tile.x, tile.y, tile.w, tile.h, radius, p.panel, p.grid, 1.5}});
    const double inner = tile.h - 2 * kInset;
    double bottom = tile.y + tile.h - kInset;
    for (const MemorySegment& seg : stack) {
        const double h = std::min(bottom - (tile.y + kInset), inner * seg.bytes / capacity);
        if (h <= 0) continue;
        bottom -= h;
        out.push_back(Item{Rect{tile.x + kInset, bottom, tile.w - 2 * kInset, h, 0, seg.color}});
    }
}

}  // namespace story
