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
            return t && t->color == p.highlight;
        });
    };
    CHECK(spill_texts(items) == 1);
    const auto bare = without_spill_label(items, p.highlight);
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

TEST_CASE("an overflow keeps its layers' colours above the line, hatched, and says by how much",
          "[draw]") {
    // 40 GB of weights and 60 GB of activations on an 80 GB card: 20 GB of activations over.
    const ApproxTextMetrics m;
    const Palette& p = palette(ThemeName::dark);
    CHECK(overflow({{40e9, p.weights}, {60e9, p.activations}}, 80e9) ==
          std::vector<MemorySegment>{{20e9, p.activations}});
    // 100 GB of weights and 20 of gradients: 20 GB of weights and all the gradients over.
    const std::vector<MemorySegment> both =
        overflow({{100e9, p.weights}, {20e9, p.gradients}}, 80e9);
    CHECK(both == std::vector<MemorySegment>{{20e9, p.weights}, {20e9, p.gradients}});

    CardSpec c{0, 300, 200, 400, "GPU 0", 80e9, {{100e9, p.weights}, {20e9, p.gradients}}};
    std::vector<Rect> spill;
    std::vector<Text> labels;
    for (const Item& i : gpu_card(p, m, Locale::english(), c)) {
        if (const auto* r = std::get_if<Rect>(&i.shape); r && r->y + r->h <= c.y + 0.01)
            spill.push_back(*r);
        if (const auto* t = std::get_if<Text>(&i.shape); t && t->y < c.y) labels.push_back(*t);
    }
    // Above the card: the weights' part at the bottom, the gradients' on top, equal heights, each
    // hatched; no part in the communication colour.
    REQUIRE(spill.size() == 2);
    CHECK(spill[0].fill == p.weights);
    CHECK(spill[1].fill == p.gradients);
    CHECK(spill[0].hatch == p.background);
    CHECK(spill[1].hatch == p.background);
    CHECK(spill[0].h == Approx(spill[1].h));
    CHECK(spill[1].y + spill[1].h == Approx(spill[0].y));
    CHECK(spill[0].y + spill[0].h == Approx(c.y));
    REQUIRE(labels.size() == 1);
    CHECK(labels[0].text == "over by 40" + std::string(kThinSpace) + "GB");
    CHECK(labels[0].color == p.highlight);
}
