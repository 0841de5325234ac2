// Rows, columns and grids of equal boxes; see arrange.hpp.
#include "story/draw/arrange.hpp"

#include <algorithm>

namespace story {

namespace {

// Start and size of item i of n along a span [from, from + span]: equal sizes at most `max`,
// gaps between, the run centred when max leaves room.
std::pair<double, double> spread(double from, double span, int n, int i, double gap, double max) {
    const double size = std::min(max, (span - gap * (n - 1)) / n);
    const double start = from + (span - (size * n + gap * (n - 1))) / 2;
    return {start + i * (size + gap), size};
}

}  // namespace

Box row_cell(const Box& area, int n, int i, double gap, double max_w) {
    const auto [x, w] = spread(area.x, area.w, n, i, gap, max_w);
    return {x, area.y, w, area.h};
}

Box column_cell(const Box& area, int n, int i, double gap, double max_h) {
    const auto [y, h] = spread(area.y, area.h, n, i, gap, max_h);
    return {area.x, y, area.w, h};
}

Box grid_cell(const Box& area, int cols, int rows, int col, int row, double gap_x, double gap_y) {
    return column_cell(row_cell(area, cols, col, gap_x), rows, row, gap_y);
}

Box align_in(const Box& outer, double w, double h, Align horizontal, VAlign vertical) {
    const double x = horizontal == Align::left     ? outer.x
                     : horizontal == Align::center ? outer.cx() - w / 2
                                                   : outer.right() - w;
    const double y = vertical == VAlign::top      ? outer.y
                     : vertical == VAlign::middle ? outer.cy() - h / 2
                                                  : outer.bottom() - h;
    return {x, y, w, h};
}

}  // namespace story
