// Many GPUs at a glance (STYLE.md; issue 33, item 6): where named cards would be too small to
// read, each card is a tile its memory stack fills, in a wall that fits the area however many
// there are; past kMostTiles, a tile stands for several cards and the wall says how many.
#pragma once
#include <vector>

#include "story/draw/box.hpp"
#include "story/scene/scene.hpp"
#include "story/scene/theme.hpp"
#include "story/vocab/vocab.hpp"

namespace story {

inline constexpr int kMostTiles = 400;

struct Wall {
    int tiles = 0;     // drawn
    int per_tile = 1;  // cards each tile stands for (the last holds the rest)
    bool operator==(const Wall&) const = default;
};
// The wall for `cards` (at least 1): one tile a card up to kMostTiles.
Wall wall_of(long long cards);

// The tiles of a wall of n in area: rows as wide as the area allows, the largest tiles that fit
// (portrait, as a card stands), the rows standing on area's bottom, left-aligned. Searching the
// row count is linear in n: lay a wall out once, then ask for its tiles.
class WallGrid {
  public:
    WallGrid(const Box& area, int n);
    Box tile(int i) const;

  private:
    Box area_;
    int cols_ = 1, rows_ = 1;
    double w_ = 0, gap_ = 0;
};
inline Box wall_tile(const Box& area, int n, int i) { return WallGrid(area, n).tile(i); }

// A tile: its outline and, from its bottom up, the stack's parts in their colours against
// `capacity` bytes (a full card fills it).
void add_tile(std::vector<Item>& out, const Palette& p, const Box& tile, double capacity,
              const std::vector<MemorySegment>& stack);

}  // namespace story
