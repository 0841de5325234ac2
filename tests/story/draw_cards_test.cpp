// Rows of GPU cards (story/vocab/cards.hpp): shown ranks, one overflow label, narrow labels,
// chunk tokens labelled only when the label fits.
#include <algorithm>

#include "story/draw/text.hpp"
#include "story/text/format.hpp"
#include "story/vocab/cards.hpp"
#include "story/vocab/vocab.hpp"
#include "tests/catch.hpp"

using namespace story;

TEST_CASE("a long row shows its first ranks, a gap and the last", "[draw]") {
    CHECK(shown_ranks(3, 8) == std::vector<int>{0, 1, 2});
    CHECK(shown_ranks(8, 8) == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7});
    CHECK(shown_ranks(64, 8) == std::vector<int>{0, 1, 2, 3, 4, 5, kGapRank, 63});
    CHECK(fraction_text(63, 64) == "63/64");
}

TEST_CASE("cards in a row label their overflow once and shrink names when narrow", "[draw]") {
    const ApproxTextMetrics m;
    const Palette& p = palette(ThemeName::dark);
    CardSpec c{0, 300, 200, 400, "GPU 1", 80e9, {{100e9, p.weights}}};
    const auto items = gpu_card(p, m, Locale::english(), c);
    const auto spill_texts = [&](const std::vector<Item>& v) {
        return std::count_if(v.begin(), v.end(), [&](const Item& i) {
            const auto* t = std::get_if<Text>(&i.shape);
            return t && t->color == p.comm;
        });
    };
    CHECK(spill_texts(items) == 1);
    const auto bare = without_spill_label(items, p.comm);
    CHECK(spill_texts(bare) == 0);
    CHECK(bare.size() == items.size() - 1);  // the spill itself stays drawn
    CHECK(card_label_size(kNarrowCard - 1) == style_of(Role::small).size);
    CHECK(card_label_size(kNarrowCard) == style_of(Role::label).size);
    CHECK(gap_mark({0, 0, 100, 50}, p.muted).text == "…");
    CHECK(lerp(Point{0, 10}, Point{10, 30}, 0.5).y == Approx(20));
}

TEST_CASE("a token carries its label only when it fits", "[draw]") {
    const ApproxTextMetrics m;
    const Palette& p = palette(ThemeName::dark);
    Scene big, small, empty;
    add_token(big, p, m, {100, 100}, 30, p.gradients, "3", 1);
    add_token(small, p, m, {100, 100}, 20, p.gradients, "3", 1);
    add_token(empty, p, m, {100, 100}, 30, p.gradients, "3", 0);
    REQUIRE(big.items.size() == 2);
    CHECK(std::get<Text>(big.items[1].shape).text == "3");
    CHECK(std::get<Rect>(big.items[0].shape).w == 30);
    CHECK(small.items.size() == 1);
    CHECK(empty.items.empty());
}
