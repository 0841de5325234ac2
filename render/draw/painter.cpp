// Scene -> Cairo calls. Opacity is folded into colours for single shapes; only translucent
// groups pay for an offscreen group, because overlapping children must fade as one.
#include "render/draw/painter.hpp"

#include <algorithm>
#include <cmath>

namespace render {
namespace {

constexpr double hatch_spacing = 10;  // authoring px between hatch lines
constexpr double hatch_width = 2;

void set_color(cairo_t* cr, const story::Color& c, double alpha) {
    cairo_set_source_rgba(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0, c.a / 255.0 * alpha);
}

void set_dash(cairo_t* cr, bool dashed, double width) {
    const double pattern[] = {std::max(6.0, 3 * width), std::max(4.0, 2 * width)};
    cairo_set_dash(cr, pattern, dashed ? 2 : 0, 0);
}

void stroke_with(cairo_t* cr, const story::Color& c, double alpha, double width, bool dashed) {
    set_color(cr, c, alpha);
    cairo_set_line_width(cr, width);
    set_dash(cr, dashed, width);
    cairo_stroke(cr);
}

void rect_path(cairo_t* cr, const story::Rect& r) {
    const double radius = std::clamp(r.radius, 0.0, std::min(r.w, r.h) / 2);
    if (radius <= 0) {
        cairo_rectangle(cr, r.x, r.y, r.w, r.h);
        return;
    }
    const double right = r.x + r.w, bottom = r.y + r.h;
    cairo_new_sub_path(cr);
    cairo_arc(cr, right - radius, r.y + radius, radius, -M_PI / 2, 0);
    cairo_arc(cr, right - radius, bottom - radius, radius, 0, M_PI / 2);
    cairo_arc(cr, r.x + radius, bottom - radius, radius, M_PI / 2, M_PI);
    cairo_arc(cr, r.x + radius, r.y + radius, radius, M_PI, 3 * M_PI / 2);
    cairo_close_path(cr);
}

// 45-degree lines on a grid anchored at the origin, so hatches of neighbouring rects line up.
void hatch(cairo_t* cr, const story::Rect& r, const story::Color& c, double alpha) {
    cairo_save(cr);
    rect_path(cr, r);
    cairo_clip(cr);
    const double first = std::ceil((r.x + r.y) / hatch_spacing) * hatch_spacing;
    for (double k = first; k <= r.x + r.w + r.y + r.h; k += hatch_spacing) {
        cairo_move_to(cr, k - r.y, r.y);
        cairo_line_to(cr, k - r.y - r.h, r.y + r.h);
    }
    stroke_with(cr, c, alpha, hatch_width, false);
    cairo_restore(cr);
}

void draw(cairo_t* cr, const story::Rect& r, double alpha, const Fonts&) {
    if (r.fill) {
        rect_path(cr, r);
        set_color(cr, *r.fill, alpha);
        cairo_fill(cr);
    }
    if (r.hatch) hatch(cr, r, *r.hatch, alpha);
    if (r.stroke && r.stroke_width > 0) {
        rect_path(cr, r);
        stroke_with(cr, *r.stroke, alpha, r.stroke_width, r.dashed);
    }
}

void draw(cairo_t* cr, const story::Line& l, double alpha, const Fonts&) {
    cairo_move_to(cr, l.a.x, l.a.y);
    cairo_line_to(cr, l.b.x, l.b.y);
    stroke_with(cr, l.color, alpha, l.width, l.dashed);
}

// The shaft stops inside the head so a thick line never pokes out of the tip.
void draw(cairo_t* cr, const story::Arrow& a, double alpha, const Fonts&) {
    const double dx = a.b.x - a.a.x, dy = a.b.y - a.a.y;
    const double length = std::hypot(dx, dy);
    if (length <= 0) return;
    const double ux = dx / length, uy = dy / length;
    const double head = std::min(a.head, length);
    const double base_x = a.b.x - ux * head, base_y = a.b.y - uy * head;
    const double shaft = std::max(0.0, length - head * 0.5);
    cairo_move_to(cr, a.a.x, a.a.y);
    cairo_line_to(cr, a.a.x + ux * shaft, a.a.y + uy * shaft);
    stroke_with(cr, a.color, alpha, a.width, false);
    const double half = head * 0.5;
    cairo_move_to(cr, a.b.x, a.b.y);
    cairo_line_to(cr, base_x - uy * half, base_y + ux * half);
    cairo_line_to(cr, base_x + uy * half, base_y - ux * half);
    cairo_close_path(cr);
    set_color(cr, a.color, alpha);
    cairo_fill(cr);
}

void draw(cairo_t* cr, const story::Path& p, double alpha, const Fonts&) {
    if (p.points.size() < 2) return;
    cairo_move_to(cr, p.points[0].x, p.points[0].y);
    for (std::size_t i = 1; i < p.points.size(); ++i) {
        cairo_line_to(cr, p.points[i].x, p.points[i].y);
    }
    if (p.closed) cairo_close_path(cr);
    if (p.fill) {
        set_color(cr, *p.fill, alpha);
        cairo_fill_preserve(cr);
    }
    if (p.stroke) stroke_with(cr, *p.stroke, alpha, p.width, false);
    cairo_new_path(cr);
}

void draw(cairo_t* cr, const story::Text& t, double alpha, const Fonts& fonts) {
    double x = t.x;
    if (t.align != story::Align::left) {
        const double advance = fonts.measure(t.text, t.style).advance;
        x -= t.align == story::Align::center ? advance / 2 : advance;
    }
    set_color(cr, t.color, alpha);
    fonts.draw(cr, t.text, t.style, x, t.y);
}

void draw_item(cairo_t* cr, const story::Item& item, const Fonts& fonts);

void draw(cairo_t* cr, const story::Group& g, double, const Fonts& fonts) {
    cairo_save(cr);
    cairo_translate(cr, g.dx, g.dy);
    cairo_scale(cr, g.scale, g.scale);
    for (const story::Item& child : g.items) draw_item(cr, child, fonts);
    cairo_restore(cr);
}

void draw_item(cairo_t* cr, const story::Item& item, const Fonts& fonts) {
    if (item.opacity <= 0) return;
    const bool layered = item.opacity < 1 && std::holds_alternative<story::Group>(item.shape);
    if (layered) cairo_push_group(cr);
    const double alpha = layered ? 1 : std::min(item.opacity, 1.0);
    std::visit([&](const auto& shape) { draw(cr, shape, alpha, fonts); }, item.shape);
    if (layered) {
        cairo_pop_group_to_source(cr);
        cairo_paint_with_alpha(cr, item.opacity);
    }
}

}  // namespace

// Uniform scale, centred: a different aspect ratio letterboxes instead of distorting.
Fit fit(const story::Scene& scene, int width, int height) {
    const double s = std::min(width / scene.width, height / scene.height);
    return {s, (width - scene.width * s) / 2, (height - scene.height * s) / 2};
}

void paint_background(cairo_t* cr, const story::Scene& scene) {
    cairo_save(cr);
    set_color(cr, scene.background, 1);
    cairo_paint(cr);
    cairo_restore(cr);
}

void paint_items(cairo_t* cr, const story::Scene& scene, const Fonts& fonts, int width, int height,
                 std::size_t first, std::size_t last) {
    cairo_save(cr);
    const Fit f = fit(scene, width, height);
    cairo_translate(cr, f.dx, f.dy);
    cairo_scale(cr, f.scale, f.scale);
    cairo_rectangle(cr, 0, 0, scene.width, scene.height);
    cairo_clip(cr);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);  // chart polylines turn sharply
    for (std::size_t i = first; i < last; ++i) draw_item(cr, scene.items[i], fonts);
    cairo_restore(cr);
}

void paint(cairo_t* cr, const story::Scene& scene, const Fonts& fonts, int width, int height) {
    paint_background(cr, scene);
    paint_items(cr, scene, fonts, width, height, 0, scene.items.size());
}

}  // namespace render
