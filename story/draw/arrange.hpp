// Layout: equal boxes in a row, a column or a grid inside an area, and a box aligned inside
// another. Pictures build these once, in the chapter's constructor, and draw over them.
#pragma once
#include <limits>

#include "story/draw/box.hpp"

namespace story {

inline constexpr double kNoLimit = std::numeric_limits<double>::infinity();

// Box i of n equal boxes side by side across area's width, `gap` px apart, each at most max_w
// wide; boxes narrower than the area allows are centred in it. Full height of the area.
Box row_cell(const Box& area, int n, int i, double gap, double max_w = kNoLimit);
// The same down area's height: box i of n stacked, at most max_h tall, centred when shorter.
Box column_cell(const Box& area, int n, int i, double gap, double max_h = kNoLimit);
// Cell (col, row) of a cols x rows grid filling area, gap_x / gap_y between cells.
Box grid_cell(const Box& area, int cols, int rows, int col, int row, double gap_x, double gap_y);

enum class VAlign { top, middle, bottom };
// A w x h box placed inside outer: left/centre/right and top/middle/bottom.
Box align_in(const Box& outer, double w, double h, Align horizontal, VAlign vertical);

}  // namespace story
