// The shared drawing vocabulary (story/draw/): boxes, rows and grids, text columns, fades.
#include "story/draw/draw.hpp"

#include "tests/catch.hpp"

using namespace story;

TEST_CASE("row cells share the width, gaps between, centred when capped", "[draw]") {
    const Box area{100, 50, 1000, 80};
    const Box first = row_cell(area, 4, 0, 20), last = row_cell(area, 4, 3, 20);
    CHECK(first.x == Approx(100));
    CHECK(first.w == Approx(235));
    CHECK(last.right() == Approx(1100));
    CHECK(row_cell(area, 4, 1, 20).x == Approx(first.right() + 20));
    CHECK(first.y == 50);
    CHECK(first.h == 80);
    const Box capped = row_cell(area, 2, 0, 10, 100);  // 210 px of 1000: centred
    CHECK(capped.w == 100);
    CHECK(capped.x == Approx(100 + (1000 - 210) / 2.0));
    const Box cell = grid_cell(area, 2, 2, 1, 1, 10, 10);
    CHECK(cell.right() == Approx(1100));
    CHECK(cell.bottom() == Approx(130));
    CHECK(column_cell(area, 2, 0, 10).h == Approx(35));
}

TEST_CASE("boxes grow, bound, split and align", "[draw]") {
    const Box b{10, 20, 100, 50};
    CHECK(inflate(b, 5) == Box{5, 15, 110, 60});
    CHECK(bounding({b, Box{200, 0, 10, 10}}) == Box{10, 0, 200, 70});
    CHECK(below(b, 6, 24) == Box{10, 76, 100, 24});
    CHECK(bottom_of(b, 10) == Box{10, 60, 100, 10});
    CHECK(lerp(b, Box{30, 40, 0, 0}, 0.5) == Box{20, 30, 50, 25});
    CHECK(align_in(b, 20, 10, Align::right, VAlign::bottom) == Box{90, 60, 20, 10});
    CHECK(b.contains({11, 21}));
    CHECK(!b.contains({9, 21}));
    CHECK(b.contains({9, 21}, 2));
}

TEST_CASE("a text column places each line below the last from measured extents", "[draw]") {
    const ApproxTextMetrics m;  // ascent 0.97 em, descent 0.24 em
    TextColumn col(m, 100, 200);
    col.line("Each card sends", Role::note, {}).line("= 1 GB", Role::value, {});
    const auto& lines = col.lines();
    REQUIRE(lines.size() == 2);
    CHECK(lines[0].y == Approx(200 + 0.97 * 26));
    CHECK(lines[1].y == Approx(lines[0].y + 0.24 * 26 + TextColumn::kLeading * 40 + 0.97 * 40));
    CHECK(lines[1].style == style_of(Role::value));
    CHECK(lines[1].style.tabular);
    CHECK(col.bottom() == Approx(lines[1].y + 0.24 * 40));
    Scene s;
    col.add_to(s, 0);
    CHECK(s.items.empty());
}

TEST_CASE("a text column centres on a row's middle and keeps its baselines", "[draw]") {
    const ApproxTextMetrics m;
    TextColumn col(m, 0, 0);
    col.line("Data parallel", Role::body, {}).line("gradient all-reduce", Role::small, {});
    const double height = col.bottom(), pitch = col.baseline(1) - col.baseline(0);
    col.centre_on(500);
    CHECK(col.bottom() == Approx(500 + height / 2));
    CHECK(col.baseline(0) == Approx(500 - height / 2 + 0.97 * 34));
    CHECK(col.baseline(1) - col.baseline(0) == Approx(pitch));
    CHECK(col.lines()[1].y == col.baseline(1));
    CHECK(col.baseline() == col.baseline(0));
    col.line("next", Role::note, {});  // lines added after centring follow the moved column
    CHECK(col.baseline(2) == Approx(col.baseline(1) + 0.24 * 22 + (0.2 + 0.97) * 26));
    CHECK_THROWS(col.baseline(3));
}

TEST_CASE("a wrapped paragraph ends its lines at the box's far edge in a right-to-left language",
          "[draw]") {
    const ApproxTextMetrics m;
    const std::string text = "one two three four five six seven eight";
    TextColumn ltr(m, 100, 0), rtl(m, 100, 0);
    ltr.wrapped(text, in_language(style_of(Role::note), "de"), {}, 200);
    rtl.wrapped(text, in_language(style_of(Role::note), "ar"), {}, 200);
    REQUIRE(ltr.lines().size() >= 2);
    REQUIRE(rtl.lines().size() == ltr.lines().size());
    for (std::size_t i = 0; i < ltr.lines().size(); ++i) {
        CHECK(ltr.lines()[i].x == 100);
        CHECK(ltr.lines()[i].align == Align::left);
        CHECK(rtl.lines()[i].x == 300);
        CHECK(rtl.lines()[i].align == Align::right);
        CHECK(rtl.lines()[i].y == ltr.lines()[i].y);
    }
    TextColumn centred(m, 100, 0, Align::center);  // only a left-aligned column flips
    centred.wrapped(text, in_language(style_of(Role::note), "ar"), {}, 200);
    CHECK(centred.lines()[0].x == 100);
    CHECK(centred.lines()[0].align == Align::center);
}

TEST_CASE("roles keep STYLE.md's sizes and nothing under 22 px", "[draw]") {
    CHECK(style_of(Role::title).size == 60);
    CHECK(style_of(Role::heading).size == 40);
    CHECK(style_of(Role::body).size == 34);
    CHECK(style_of(Role::label).size == 26);
    CHECK(style_of(Role::small).size == 22);
}

TEST_CASE("fades, staggers and half-morphs are values of t", "[draw]") {
    const Fade f = Fade::in(1, 0.5).out(3, 1);
    CHECK(f.at(0.9) == 0);
    CHECK(f.at(1.25) == Approx(0.5));
    CHECK(f.at(2) == 1);
    CHECK(f.at(3.5) == Approx(0.5));
    CHECK(f.at(4) == 0);
    CHECK(Fade::shown().out(2).at(1) == 1);
    const Stagger st{1, 0.1, 0.5, 3};
    CHECK(st.at(1.25, 0) == Approx(0.5));
    CHECK(st.at(1.25, 1) < st.at(1.25, 0));
    CHECK(st.at(2, 9) == st.at(2, 3));  // past `last`, siblings enter together
    CHECK(Stagger{0, 0.1}.within(1, 20).step == Approx(0.05));
    const Morph early{0, 1, 0.25}, late{0, 1, 0.75}, still{0, 0, 1};
    CHECK(leaving(early) == Approx(0.5));
    CHECK(arriving(early) == 0);
    CHECK(arriving(late) == Approx(0.5));
    CHECK(shown_state(early) == 0);
    CHECK(shown_state(late) == 1);
    CHECK(swap_alpha(still) == 1);
    // A number is one state's, never a blend (no 12 between 8 and 16); a box slides.
    CHECK(morphed(early, std::vector<double>{8, 16}) == 8);
    CHECK(morphed(late, std::vector<double>{8, 16}) == 16);
    CHECK(shown_of(late, 2, 4) == 4);
    CHECK(morphed(late, std::vector<Box>{{0, 0, 8, 8}, {0, 0, 16, 16}}).w == Approx(14));
    CHECK(within(0.75, 0.5, 0.5) == Approx(0.5));
}

TEST_CASE("add_items fades a group by one rule: alpha clamped to [0, 1]", "[draw]") {
    Scene s;
    add_items(s, {{Rect{}, 0.5}}, 3);
    add_items(s, {{Rect{}, 1}}, 0);
    REQUIRE(s.items.size() == 1);
    CHECK(s.items[0].opacity == 0.5);
}

TEST_CASE("a legend row places its entries left to right, each fading on its own", "[draw]") {
    const ApproxTextMetrics m;
    const Palette& p = palette(ThemeName::dark);
    Scene s;
    const double right = add_legend(
        s, p, m, 100, 500,
        {{"Forward", p.weights}, {"Idle", p.idle, true}, {"scores", p.activations, false, 0.25}},
        0.5);
    REQUIRE(s.items.size() == 6);  // a swatch and a label per entry
    const auto& idle = std::get<Rect>(s.items[2].shape);
    const auto& scores = std::get<Text>(s.items[5].shape);
    CHECK(idle.hatch == p.idle);
    CHECK(idle.fill == p.panel);
    CHECK(idle.x > std::get<Text>(s.items[1].shape).x);
    CHECK(scores.style == style_of(Role::note));
    CHECK(scores.y == 500);
    CHECK(right == Approx(scores.x + m.measure("scores", scores.style).advance));
    CHECK(s.items[1].opacity == 0.5);                 // the row's alpha
    CHECK(s.items[5].opacity == 0.25);                // below it, the entry's own
    CHECK(std::get<Rect>(s.items[0].shape).y < 500);  // the swatch sits on the baseline
}
