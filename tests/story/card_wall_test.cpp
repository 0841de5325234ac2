// Any card count the bytes chapter can be asked for is legible (issue 33, item 6): up to two rows
// of named cards, then a wall of tiles that never overlap and stay readable, a tile standing for
// several cards past kMostTiles, with the count on screen.
#include "story/vocab/card_wall.hpp"

#include <cstdio>
#include <string>

#include "chapter_fixture.hpp"
#include "story/storyboard/settings.hpp"
#include "tests/catch.hpp"
#include "tests/story/on_screen.hpp"

using namespace story;

namespace {

bool apart(const Box& a, const Box& b) {
    return a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
}

// The model whose states need `cards` 80 GB cards at 16 B a parameter.
std::string model_for(long long cards) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4gB", (static_cast<double>(cards) - 0.5) * 5);
    return text;
}

}  // namespace

TEST_CASE("card wall: one tile a card up to kMostTiles, then each tile stands for several",
          "[chapters]") {
    for (long long cards : {1LL, 17LL, 82LL, 400LL, 401LL, 999LL, 12345LL, 200000LL}) {
        INFO(cards << " cards");
        const Wall w = wall_of(cards);
        CHECK(w.tiles <= kMostTiles);
        CHECK(static_cast<long long>(w.tiles) * w.per_tile >= cards);
        CHECK(static_cast<long long>(w.tiles - 1) * w.per_tile < cards);
        if (cards <= kMostTiles) CHECK(w == Wall{static_cast<int>(cards), 1});
    }
}

TEST_CASE("card wall: tiles of every count stay inside the area, apart and readable",
          "[chapters]") {
    const Box area{960, 450, 864, 410};
    for (int n = 1; n <= kMostTiles; ++n) {
        INFO(n << " tiles");
        const Box first = wall_tile(area, n, 0), last = wall_tile(area, n, n - 1);
        CHECK(first.w >= 20);
        CHECK(first.h > first.w);  // a card stands upright
        CHECK(first.x >= area.x);
        CHECK(first.y >= area.y - 1e-9);
        CHECK(last.y + last.h <= area.y + area.h + 1e-9);
        for (int i = 0; i < n; ++i) {
            const Box b = wall_tile(area, n, i);
            CHECK(b.x + b.w <= area.x + area.w + 1e-9);
            if (i + 1 < n) CHECK(apart(b, wall_tile(area, n, i + 1)));
        }
        if (n > 1) CHECK(apart(first, last));
    }
}

TEST_CASE("bytes_per_parameter: a wall of tiles past 16 cards, the engine's count above it",
          "[chapters]") {
    ChapterSpec spec =
        chapter_test::without_sets(chapter_test::load_spec("kind_bytes_per_parameter.yaml"));
    const Palette& p = palette(Video{}.theme);
    for (long long cards : {16LL, 17LL, 82LL, 400LL, 4000LL, 200000LL}) {
        INFO(cards << " cards");
        REQUIRE_FALSE(apply_setting(spec.config, "model", model_for(cards)));
        REQUIRE(engine::analyze(spec.config).gpus_to_hold_model_states == cards);
        const auto chapter = make_chapter(spec, Video{}, chapter_test::kMetrics);
        const Scene s = chapter->scene_at(spec.duration - 0.01);
        const std::vector<Rect> tiles = chapter_test::rects(s, p.panel, 900, 300, 1920, 900);
        const Wall w = wall_of(cards);
        CHECK(tiles.size() == static_cast<std::size_t>(cards <= 16 ? cards : w.tiles));
        for (std::size_t i = 0; i + 1 < tiles.size(); ++i)
            CHECK(apart({tiles[i].x, tiles[i].y, tiles[i].w, tiles[i].h},
                        {tiles[i + 1].x, tiles[i + 1].y, tiles[i + 1].w, tiles[i + 1].h}));
        const bool named = on_screen::count(s, "GPU 0") == 1;
        CHECK(named == (cards <= 16));
        const bool noted =
            on_screen::count(s, "each tile: " + format_int(w.per_tile) + " cards") == 1;
        CHECK(noted == (w.per_tile > 1));
    }
}
