// Display-list helpers: colours, equality of groups, printing (for test failure messages) and
// flattening the text items with absolute positions.
#include "story/scene/scene.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <ostream>
#include <sstream>

namespace story {

Color hex(std::uint32_t rgb) {
    return Color{static_cast<std::uint8_t>(rgb >> 16), static_cast<std::uint8_t>(rgb >> 8),
                 static_cast<std::uint8_t>(rgb), 255};
}

Color with_alpha(Color c, double alpha) {
    c.a = static_cast<std::uint8_t>(std::lround(std::clamp(alpha, 0.0, 1.0) * c.a));
    return c;
}

bool Group::operator==(const Group& o) const {
    return dx == o.dx && dy == o.dy && scale == o.scale && items == o.items;
}

namespace {

std::ostream& operator<<(std::ostream& os, const Color& c) {
    return os << '#' << std::hex << std::setfill('0') << std::setw(2) << int(c.r) << std::setw(2)
              << int(c.g) << std::setw(2) << int(c.b) << std::setw(2) << int(c.a) << std::dec
              << std::setfill(' ');
}

std::ostream& operator<<(std::ostream& os, const std::optional<Color>& c) {
    if (c) return os << *c;
    return os << "none";
}

void print(std::ostream& os, const Item& item, int depth);

struct Printer {
    std::ostream& os;
    int depth;
    void operator()(const Rect& r) const {
        os << "rect " << r.x << ',' << r.y << ' ' << r.w << 'x' << r.h << " r" << r.radius
           << " fill " << r.fill << " stroke " << r.stroke << ' ' << r.stroke_width
           << (r.dashed ? " dashed" : "") << " hatch " << r.hatch;
    }
    void operator()(const Line& l) const {
        os << "line " << l.a.x << ',' << l.a.y << " -> " << l.b.x << ',' << l.b.y << ' ' << l.color
           << ' ' << l.width << (l.dashed ? " dashed" : "");
    }
    void operator()(const Arrow& a) const {
        os << "arrow " << a.a.x << ',' << a.a.y << " -> " << a.b.x << ',' << a.b.y << ' ' << a.color
           << ' ' << a.width;
    }
    void operator()(const Path& p) const {
        os << "path " << p.points.size() << " points" << (p.closed ? " closed" : "") << " fill "
           << p.fill << " stroke " << p.stroke;
    }
    void operator()(const Text& t) const {
        os << "text " << t.x << ',' << t.y << " size " << t.style.size << " w"
           << int(t.style.weight) << (t.style.tabular ? " tnum" : "")
           << (t.style.lang.empty() ? "" : " lang " + t.style.lang) << " align " << int(t.align)
           << ' ' << t.color << " \"" << t.text << '"';
    }
    void operator()(const Group& g) const {
        os << "group +" << g.dx << ',' << g.dy << " x" << g.scale;
        for (const Item& child : g.items) {
            os << '\n';
            print(os, child, depth + 1);
        }
    }
};

void print(std::ostream& os, const Item& item, int depth) {
    os << std::string(2 * depth, ' ');
    if (item.opacity != 1) os << "[opacity " << item.opacity << "] ";
    std::visit(Printer{os, depth}, item.shape);
}

void collect(const std::vector<Item>& items, double dx, double dy, double scale, double opacity,
             std::vector<PlacedText>& out) {
    for (const Item& item : items) {
        const double alpha = opacity * item.opacity;
        if (const auto* t = std::get_if<Text>(&item.shape)) {
            Text placed = *t;
            placed.x = dx + scale * t->x;
            placed.y = dy + scale * t->y;
            placed.style.size = scale * t->style.size;
            out.push_back({placed, alpha});
        } else if (const auto* g = std::get_if<Group>(&item.shape)) {
            collect(g->items, dx + scale * g->dx, dy + scale * g->dy, scale * g->scale, alpha, out);
        }
    }
}

}  // namespace

std::ostream& operator<<(std::ostream& os, const Scene& s) {
    os << "scene " << s.width << 'x' << s.height << " bg " << s.background;
    for (const Item& item : s.items) {
        os << '\n';
        print(os, item, 1);
    }
    return os;
}

std::string to_string(const Scene& s) {
    std::ostringstream os;
    os << s;
    return os.str();
}

void default_language(std::vector<Item>& items, const std::string& lang) {
    for (Item& item : items) {
        if (auto* t = std::get_if<Text>(&item.shape); t && t->style.lang.empty())
            t->style.lang = lang;
        else if (auto* g = std::get_if<Group>(&item.shape))
            default_language(g->items, lang);
    }
}

std::vector<PlacedText> texts_of(const Scene& s) {
    std::vector<PlacedText> out;
    collect(s.items, 0, 0, 1, 1, out);
    return out;
}

}  // namespace story
