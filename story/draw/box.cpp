// Box arithmetic; see box.hpp.
#include "story/draw/box.hpp"

#include <algorithm>
#include <cmath>

#include "story/time/easing.hpp"

namespace story {

bool Box::contains(Point p, double margin) const {
    return p.x > x - margin && p.x < right() + margin && p.y > y - margin &&
           p.y < bottom() + margin;
}

Box box_around(Point c, double w, double h) { return {c.x - w / 2, c.y - h / 2, w, h}; }

Box lerp(const Box& a, const Box& b, double u) {
    return {lerp(a.x, b.x, u), lerp(a.y, b.y, u), lerp(a.w, b.w, u), lerp(a.h, b.h, u)};
}

Point lerp(Point a, Point b, double u) { return {lerp(a.x, b.x, u), lerp(a.y, b.y, u)}; }

Point along(const std::vector<Point>& path, double u) {
    double total = 0;
    for (std::size_t i = 1; i < path.size(); ++i)
        total += std::hypot(path[i].x - path[i - 1].x, path[i].y - path[i - 1].y);
    double left = std::clamp(u, 0.0, 1.0) * total;
    for (std::size_t i = 1; i < path.size(); ++i) {
        const double len = std::hypot(path[i].x - path[i - 1].x, path[i].y - path[i - 1].y);
        if (left <= len && len > 0) return lerp(path[i - 1], path[i], left / len);
        left -= len;
    }
    return path.back();
}

Box inflate(const Box& b, double by) { return {b.x - by, b.y - by, b.w + 2 * by, b.h + 2 * by}; }

Box inset(const Box& b, double dx, double dy) {
    return {b.x + dx, b.y + dy, b.w - 2 * dx, b.h - 2 * dy};
}

Box bounding(const std::vector<Box>& boxes) {
    double x0 = boxes[0].x, y0 = boxes[0].y, x1 = boxes[0].right(), y1 = boxes[0].bottom();
    for (const Box& b : boxes) {
        x0 = std::min(x0, b.x);
        y0 = std::min(y0, b.y);
        x1 = std::max(x1, b.right());
        y1 = std::max(y1, b.bottom());
    }
    return {x0, y0, x1 - x0, y1 - y0};
}

Box top_of(const Box& b, double h) { return {b.x, b.y, b.w, h}; }
Box bottom_of(const Box& b, double h) { return {b.x, b.bottom() - h, b.w, h}; }
Box left_of(const Box& b, double w) { return {b.x, b.y, w, b.h}; }
Box right_of(const Box& b, double w) { return {b.right() - w, b.y, w, b.h}; }
Box below(const Box& b, double gap, double h) { return {b.x, b.bottom() + gap, b.w, h}; }
Box above(const Box& b, double gap, double h) { return {b.x, b.y - gap - h, b.w, h}; }

Point exit_point(const Box& b, Point to, double margin) {
    const double dx = to.x - b.cx(), dy = to.y - b.cy();
    const double hw = b.w / 2 + margin, hh = b.h / 2 + margin;
    const double k = std::min(dx != 0 ? hw / std::abs(dx) : 1e9, dy != 0 ? hh / std::abs(dy) : 1e9);
    return {b.cx() + dx * std::min(k, 1.0), b.cy() + dy * std::min(k, 1.0)};
}

Rect filled(const Box& b, double radius, Color fill, std::optional<Color> stroke,
            double stroke_width) {
    return {b.x, b.y, b.w, b.h, radius, fill, stroke, stroke_width};
}

Rect outline(const Box& b, double radius, Color stroke, double width, bool dashed) {
    return {b.x, b.y, b.w, b.h, radius, std::nullopt, stroke, width, dashed};
}

}  // namespace story
