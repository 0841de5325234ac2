// The per-frame display list: plain, comparable, printable data, so chapters are tested
// without pixels and the painter stays a pure Scene -> drawing-calls function.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace story {

struct Color {
    std::uint8_t r = 0, g = 0, b = 0, a = 255;
    bool operator==(const Color&) const = default;
};
Color hex(std::uint32_t rgb);  // hex(0x56B4E9)
Color with_alpha(Color c, double alpha);

struct Point {
    double x = 0, y = 0;
    bool operator==(const Point&) const = default;
};

enum class Weight { regular, medium, semibold };
enum class Align { left, center, right };

struct TextStyle {
    double size = 34;  // px in the 1920x1080 authoring space
    Weight weight = Weight::regular;
    bool tabular = false;  // OpenType tnum: numbers that change on screen
    // BCP-47 tag of the text's language (issue 18): an RTL language (story/text/lang.hpp) makes the
    // line right to left, and it picks glyph forms (a CJK region's) and where lines break. ""
    // (unknown) leaves the direction to the first strong letter ("GPU 0" runs left to right).
    std::string lang = {};
    bool operator==(const TextStyle&) const = default;
};

struct Rect {
    double x = 0, y = 0, w = 0, h = 0, radius = 0;
    std::optional<Color> fill, stroke;
    double stroke_width = 0;
    bool dashed = false;
    std::optional<Color> hatch;  // diagonal hatching over the fill (idle / bubble)
    bool operator==(const Rect&) const = default;
};

struct Line {
    Point a, b;
    Color color;
    double width = 2;
    bool dashed = false;
    bool operator==(const Line&) const = default;
};

struct Arrow {
    Point a, b;  // tail, head
    Color color;
    double width = 3, head = 14;
    bool operator==(const Arrow&) const = default;
};

struct Path {
    std::vector<Point> points;
    bool closed = false;
    std::optional<Color> fill, stroke;
    double width = 2;
    bool operator==(const Path&) const = default;
};

// Text is anchored at (x, baseline y); align picks which end of the measured advance x is.
struct Text {
    double x = 0, y = 0;
    std::string text;
    TextStyle style;
    Color color;
    Align align = Align::left;
    bool operator==(const Text&) const = default;
};

struct Item;
// Children are drawn translated by (dx, dy) and scaled by `scale` about (dx, dy).
struct Group {
    double dx = 0, dy = 0, scale = 1;
    std::vector<Item> items;
    bool operator==(const Group&) const;
};

struct Item {
    std::variant<Rect, Line, Arrow, Path, Text, Group> shape;
    double opacity = 1;
    bool operator==(const Item&) const = default;
};

struct Scene {
    double width = 1920, height = 1080;  // authoring space; sinks scale to the output size
    Color background;
    std::vector<Item> items;
    bool operator==(const Scene&) const = default;

    // The shape is made in its place, not moved in inside a whole Item: GCC 14 warns
    // (-Wmaybe-uninitialized, falsely) on the variant's move where this inlines.
    template <class Shape>
    void add(Shape s, double opacity = 1) {
        Item& item = items.emplace_back();
        item.shape = std::move(s);
        item.opacity = opacity;
    }
};

std::ostream& operator<<(std::ostream& os, const Scene& s);
std::string to_string(const Scene& s);

// Every Text item (in groups too) whose style names no language gets `lang`: a film's labels,
// figures and formulas are laid out in its language's paragraph direction (right to left in
// Arabic), not by their first letter.
void default_language(std::vector<Item>& items, const std::string& lang);

// Every Text item with its absolute position, for tests that read numbers off the screen.
struct PlacedText {
    Text text;
    double opacity = 1;
};
std::vector<PlacedText> texts_of(const Scene& s);

}  // namespace story
