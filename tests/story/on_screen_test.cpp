// The screen reader the chapter tests use: it finds a readout by its label, so a value drawn
// under the wrong label fails even though the value is on screen.
#include "tests/story/on_screen.hpp"

#include "story/scene/layout.hpp"
#include "story/scene/theme.hpp"
#include "tests/catch.hpp"

using namespace story;
using namespace on_screen;

namespace {

const ApproxTextMetrics kMetrics;

Scene panel(std::vector<Stat> stats) {
    Scene s;
    add_chrome(s, palette(ThemeName::dark), kMetrics, Chrome{"A title", std::move(stats)});
    return s;
}

// A two-column table: a heading line, then one row per name with its value at x 600.
Scene table(const std::vector<std::pair<std::string, std::string>>& rows) {
    Scene s;
    s.add(Text{100, 300, "Strategy", {26}, {}});
    s.add(Text{600, 300, "Per card", {26}, {}, Align::right});
    double y = 360;
    for (const auto& [name, value] : rows) {
        s.add(Text{100, y, name, {30}, {}});
        s.add(Text{600, y + 8, value, {30}, {}, Align::right});
        y += 70;
    }
    return s;
}

// A card drawn as a group: its name on top, its gauge's figure at the bottom.
Item card(double dx, const std::string& name, const std::string& gauge) {
    Group g{dx, 400, 0.5, {}};
    g.items.push_back({Text{0, 0, name, {40}, {}}});
    g.items.push_back({Text{0, 600, gauge, {40}, {}}});
    return {g};
}

}  // namespace

TEST_CASE("stat reads the value under its own label, not any value on screen", "[on_screen]") {
    const Scene right = panel({{"Per card", "32.3 GB"}, {"Comm / step", "36.8 GB", "81.7 ms"}});
    CHECK(stat(right, "Per card") == Lines{"32.3 GB"});
    CHECK(stat(right, "Comm / step") == Lines{"36.8 GB", "81.7 ms"});
    CHECK(under(right, "Per card") == "32.3 GB");

    // The same numbers under swapped labels: still on screen, but not where a viewer looks.
    const Scene wrong = panel({{"Comm / step", "32.3 GB"}, {"Per card", "36.8 GB", "81.7 ms"}});
    CHECK(count(wrong, "32.3 GB") == 1);
    CHECK(stat(wrong, "Per card") != Lines{"32.3 GB"});
    CHECK(stat(wrong, "Per card") == Lines{"36.8 GB", "81.7 ms"});
}

TEST_CASE("row_beside and cell read a table row by its name and heading", "[on_screen]") {
    const Scene right = table({{"DP", "130 GB"}, {"ZeRO-1", "48.9 GB"}});
    CHECK(beside(right, "DP") == "130 GB");
    CHECK(row_beside(right, "ZeRO-1") == Lines{"48.9 GB"});
    CHECK(cell(right, "ZeRO-1", "Per card") == "48.9 GB");
    CHECK(cell(right, "ZeRO-1", "Strategy") == "(nothing in row \"ZeRO-1\" under \"Strategy\")");

    // Values one row off: each is on screen, none beside its own name.
    const Scene wrong = table({{"DP", "48.9 GB"}, {"ZeRO-1", "130 GB"}});
    CHECK(count(wrong, "130 GB") == 1);
    CHECK(beside(wrong, "DP") != "130 GB");
    CHECK(cell(wrong, "ZeRO-1", "Per card") != "48.9 GB");
}

TEST_CASE("under follows groups to absolute positions and picks the card's own gauge",
          "[on_screen]") {
    Scene s;
    s.items = {card(100, "GPU 0", "14 GB"), card(400, "GPU 1", "14.4 GB")};
    CHECK(under(s, "GPU 0") == "14 GB");
    CHECK(under(s, "GPU 1") == "14.4 GB");
    CHECK(column_under(s, "GPU 1") == Lines{});  // the gauge is far below: not one column
    CHECK(column_under(s, "GPU 1", 20) == Lines{"14.4 GB"});

    // Two cards' figures swapped between them.
    s.items = {card(100, "GPU 0", "14.4 GB"), card(400, "GPU 1", "14 GB")};
    CHECK(under(s, "GPU 0") != "14 GB");
}

TEST_CASE("above, rows_under and lowest_line read a column of cards and its foot", "[on_screen]") {
    Scene s;
    s.add(Text{100, 100, "Queries stay", {26}, {}});
    s.add(Text{110, 200, "GPU 0", {22}, {}});
    s.add(Text{200, 204, "Q 0 + 7", {22}, {}});
    s.add(Text{110, 300, "GPU 1", {22}, {}});
    s.add(Text{200, 296, "Q 1 + 6", {22}, {}});
    s.add(Text{700, 200, "elsewhere", {22}, {}});  // outside the heading's width
    s.add(Text{110, 400, "Ring: handed on 1 time", {22}, {}});
    CHECK(above(s, "GPU 0") == "Queries stay");
    CHECK(above(s, "Queries stay") == "(nothing above \"Queries stay\")");
    CHECK(rows_under(s, "Queries stay") == std::vector<Lines>{{"GPU 0", "Q 0 + 7"},
                                                              {"GPU 1", "Q 1 + 6"},
                                                              {"Ring: handed on 1 time"}});
    CHECK(lowest_line(s) == Lines{"Ring: handed on 1 time"});
    // A caption in the band under the picture is not part of any column.
    s.add(Text{0, frame::kCaptionTop + 60, "A caption wide enough to span the column", {34}, {}});
    CHECK(rows_under(s, "Queries stay").size() == 3);
    CHECK(lowest_line(s) == Lines{"A caption wide enough to span the column"});
}

TEST_CASE("the readers say why they found nothing", "[on_screen]") {
    Scene s;
    s.add(Text{100, 100, "Per card", {26}, {}});
    s.add(Text{100, 150, "faded", {40}, {}}, 0.5);
    CHECK(under(s, "Per card") == "(nothing under \"Per card\")");  // a fading text is not shown
    CHECK(count(s, "faded") == 0);
    CHECK(under(s, "Bubble") == "(no \"Bubble\" on screen)");
    s.add(Text{900, 400, "Per card", {26}, {}});  // lower down: a table's heading
    CHECK(beside(s, "Per card") == "(\"Per card\" shown 2 times)");
    CHECK(count(s, "Per card") == 2);
    // Two texts under the label, as much under it as each other (its middle is x 157.2).
    s.add(Text{157.2, 150, "one", {40}, {}, Align::right});
    s.add(Text{157.2, 150, "two", {40}, {}});
    CHECK(under(s, "Per card") == "(\"Per card\" shown 2 times)");
    CHECK(stat(s, "Per card") == Lines{"(2 texts side by side: \"one\" \"two\")"});
}
