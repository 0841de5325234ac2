// The one box type every chapter places things with (authoring px, y down), and the few
// operations pictures need: edges and centre, growing and shrinking, cutting strips off a side,
// the box around others, and the display-list rectangle of a box.
#pragma once
#include <optional>
#include <vector>

#include "story/scene/scene.hpp"

namespace story {

struct Box {
    double x = 0, y = 0, w = 0, h = 0;
    double right() const { return x + w; }
    double bottom() const { return y + h; }
    double cx() const { return x + w / 2; }
    double cy() const { return y + h / 2; }
    Point centre() const { return {cx(), cy()}; }
    // Inside the box grown by margin on every side (edges excluded).
    bool contains(Point p, double margin = 0) const;
    bool operator==(const Box&) const = default;
};

// A w x h box centred on c.
Box box_around(Point c, double w, double h);
// Between two boxes, u = 0: a, u = 1: b (a morph's u, not clamped).
Box lerp(const Box& a, const Box& b, double u);
// Between two points, u = 0: a, u = 1: b (not clamped).
Point lerp(Point a, Point b, double u);
// A point moving at constant speed along a polyline (not empty), u in [0, 1] (clamped).
Point along(const std::vector<Point>& path, double u);
// Grown by `by` on every side (negative shrinks); inset shrinks by dx left/right, dy top/bottom.
Box inflate(const Box& b, double by);
Box inset(const Box& b, double dx, double dy);
// The smallest box holding all of them. Precondition: not empty.
Box bounding(const std::vector<Box>& boxes);

// Strips cut from a side of b: the top `h` px of b, the bottom `h` px, the left and right `w` px.
Box top_of(const Box& b, double h);
Box bottom_of(const Box& b, double h);
Box left_of(const Box& b, double w);
Box right_of(const Box& b, double w);
// A strip `h` tall just under b (or above it), `gap` px away, as wide as b.
Box below(const Box& b, double gap, double h);
Box above(const Box& b, double gap, double h);

// Where the segment from b's centre towards `to` leaves b grown by margin (`to` itself when it
// is inside): links start at the edge of what they join.
Point exit_point(const Box& b, Point to, double margin = 0);

// The display-list rectangle of a box: filled (optionally stroked), or an outline only.
Rect filled(const Box& b, double radius, Color fill, std::optional<Color> stroke = std::nullopt,
            double stroke_width = 0);
Rect outline(const Box& b, double radius, Color stroke, double width, bool dashed = false);

}  // namespace story
