// The model's loaf of layer slices in the chapters that split it (story/vocab/loaf.hpp): data
// parallel copies it whole beside every card of the ring, ZeRO cuts each slice across the cards
// under them, the rack's cards hold their tensor-parallel piece and, from the stages' turn, their
// stage's chunk. Every count comes from the engine's state on screen, and each loaf sits where
// its card is, clear of the others.
#include "story/vocab/loaf.hpp"

#include "chapter_fixture.hpp"
#include "engine/layout3d.hpp"
#include "story/scene/layout.hpp"
#include "story/time/timeline.hpp"
#include "story/vocab/rack_geometry.hpp"
#include "story/vocab/rack_vocab.hpp"
#include "story/vocab/ring_track.hpp"
#include "tests/catch.hpp"

using namespace story;
using chapter_test::Loaf;
using chapter_test::loaves;

namespace {

const Palette& kPalette = palette(ThemeName::dark);

bool apart(const Box& a, const Box& b) {
    return a.right() <= b.x || b.right() <= a.x || a.bottom() <= b.y || b.bottom() <= a.y;
}

void check_box(const Box& got, const Box& want) {
    CHECK(got.x == Approx(want.x));
    CHECK(got.y == Approx(want.y));
    CHECK(got.w == Approx(want.w));
    CHECK(got.h == Approx(want.h));
}

long count_fill(const std::vector<Rect>& rects, Color fill) {
    return std::count_if(rects.begin(), rects.end(), [&](const Rect& r) { return r.fill == fill; });
}

// The held rects of one slice (those on the first held rect's row).
std::vector<Rect> first_slice(const Loaf& loaf) {
    std::vector<Rect> out;
    for (const Rect& r : loaf.held)
        if (r.y == Approx(loaf.held.front().y)) out.push_back(r);
    return out;
}

}  // namespace

TEST_CASE("loaf slicing: at most eight slices, each the same whole number of layers",
          "[chapters][loaf]") {
    CHECK(loaf_slicing(32).slices == 8);  // 7B: four layers a slice
    CHECK(loaf_slicing(32).per_slice == 4);
    CHECK(loaf_slicing(40).slices == 8);  // 13B: five
    CHECK(loaf_slicing(80).per_slice == 10);
    CHECK(loaf_slicing(126).slices == 8);  // 405B: 16 a slice, the last 14
    CHECK(loaf_slicing(126).per_slice == 16);
    CHECK(loaf_slicing(5).slices == 5);
}

TEST_CASE("ring_allreduce: the whole loaf beside every card, clear of the ring's cards",
          "[chapters][ring][loaf]") {
    const ChapterSpec spec = chapter_test::load_spec("kind_ring_allreduce.yaml", "ring");
    const auto chapter = make_chapter(spec, Video{}, chapter_test::kMetrics);
    const Timeline timeline(spec, Video{}.fps);
    for (const auto& [t, k] : {std::pair{3.0, 0}, std::pair{23.9, 1}}) {
        const engine::Config& c = timeline.states()[k];
        const int n = c.layout.gpus;
        INFO(n << " cards");
        const std::vector<Loaf> drawn = loaves(chapter->scene_at(t));
        REQUIRE(static_cast<int>(drawn.size()) == n);
        const ring_track::RingLayout ring = ring_track::ring_layout(n);
        for (int i = 0; i < n; ++i) {
            INFO("GPU " << i);
            // Copied whole: one held slice per four of the 7B's 32 layers, none faint.
            CHECK(drawn[i].held.size() * 4 == static_cast<std::size_t>(c.model.layers));
            CHECK(count_fill(drawn[i].held, kPalette.weights) == 8);
            CHECK(drawn[i].faint.empty());
            check_box(drawn[i].box, ring_track::loaf_beside(ring.cards[i]));
            // Outside the picture's centre line from its card, clear of every card and loaf.
            CHECK((drawn[i].box.cx() < ring.cards[i].cx()) ==
                  (ring.cards[i].cx() < ring_track::kCx));
            for (int j = 0; j < n; ++j) {
                CHECK(apart(drawn[i].box, ring_track::with_strip(ring.cards[j], false)));
                if (j != i) CHECK(apart(drawn[i].box, drawn[j].box));
            }
        }
    }
    // While the ring resizes, its cards slide and the loaves are gone.
    CHECK(loaves(chapter->scene_at(18.0)).empty());
}

TEST_CASE("ring loaves: for every ring the chapter draws, apart from every card and loaf",
          "[chapters][ring][loaf]") {
    int drawn = 0;
    for (int n = 1; n <= 128; ++n) {
        if (!ring_track::loaf_fits(n)) continue;
        ++drawn;
        INFO(n << " cards");
        const ring_track::RingLayout ring = ring_track::ring_layout(n);
        for (int i = 0; i < n; ++i) {
            const Box loaf = ring_track::loaf_beside(ring.cards[i]);
            CHECK(loaf.x >= frame::kLeft);
            CHECK(loaf.right() <= frame::kRight);
            CHECK(loaf.y >= frame::kPictureTop);
            CHECK(loaf.bottom() <= frame::kPictureBottom);
            for (int j = 0; j < n; ++j) {
                CHECK(apart(loaf, ring_track::with_strip(ring.cards[j], false)));
                if (j != i) CHECK(apart(loaf, ring_track::loaf_beside(ring.cards[j])));
            }
        }
    }
    CHECK(drawn == 17);  // 1 to 17 cards, the default film's 8 and 16 among them
}

TEST_CASE(
    "zero_stages: each slice cut across the cards, each card's own piece in the stage's "
    "colours",
    "[chapters][zero][loaf]") {
    const ChapterSpec spec = chapter_test::load_spec("kind_zero_stages.yaml", "zero");
    const auto chapter = make_chapter(spec, Video{}, chapter_test::kMetrics);
    const Timeline timeline(spec, Video{}.fps);
    // After each stage's morph, and after 64 cards: the sharded parts' colours of the own piece.
    const std::vector<std::vector<Color>> own{
        {kPalette.weights},
        {kPalette.optimizer},
        {kPalette.gradients, kPalette.optimizer},
        {kPalette.weights, kPalette.gradients, kPalette.optimizer}};
    const double settled[5] = {3.5, 8.5, 13.5, 19.5, 25.9};
    for (int k = 0; k < 5; ++k) {
        const engine::Config& c = timeline.states()[k];
        const int z = c.layout.zero, shards = c.layout.zero_shards();
        INFO("ZeRO-" << z << " on " << shards << " cards");
        const std::vector<Loaf> drawn = loaves(chapter->scene_at(settled[k]));
        const std::vector<int> ranks = k < 4 ? std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}
                                             : std::vector<int>{0, 1, 2, 3, 4, 5, 63};
        REQUIRE(drawn.size() == ranks.size());
        for (std::size_t i = 0; i < drawn.size(); ++i) {
            const Loaf& loaf = drawn[i];
            const int rank = ranks[i];
            INFO("GPU " << rank);
            // Under the cards, left of the table, above the keys; in card order, apart.
            CHECK(loaf.box.y == Approx(300 + 540 - 96));
            CHECK(loaf.box.bottom() == Approx(840));
            CHECK(loaf.box.x >= 96);
            CHECK(loaf.box.right() <= 1180);
            if (i > 0) CHECK(drawn[i - 1].box.right() < loaf.box.x);
            // Eight slices (the 7B's 32 layers, four a slice), each with the card's own piece.
            const std::size_t stripes = own[z].size(), slices = c.model.layers / 4;
            CHECK(count_fill(loaf.held, own[z].back()) == static_cast<long>(slices));
            if (z == 0) {
                CHECK(loaf.held.size() == slices);  // the whole loaf, as under the ring
                continue;
            }
            // The slice cut into one piece per card: the own piece is the rank's of `shards`.
            const std::vector<Rect> slice = first_slice(loaf);
            const double piece = loaf.box.w / shards;
            double left = 1e9, right = -1e9;  // the own piece: every stripe not the weights'
            for (const Rect& r : slice)
                if (z == 3 || r.fill != kPalette.weights) {
                    left = std::min(left, r.x);
                    right = std::max(right, r.x + r.w);
                }
            CHECK(left >= loaf.box.x + rank * piece - kLoafMinHeld);
            CHECK(right <= loaf.box.x + (rank + 1) * piece + kLoafMinHeld);
            if (z < 3) {  // the weights still whole: every other piece held in their colour
                CHECK(count_fill(loaf.held, kPalette.weights) ==
                      static_cast<long>(slices * (shards - 1)));
                CHECK(slice.size() == static_cast<std::size_t>(shards - 1) + stripes);
            } else {  // nothing else held: the rest of each slice faint
                CHECK(loaf.held.size() == slices * stripes);
                // Narrow pieces (64 to a slice) lie on one faint slice; wide ones are faint apart.
                CHECK(loaf.faint.size() == slices * (shards > 8 ? 1 : shards - 1));
            }
        }
    }
}

TEST_CASE(
    "layout_3d: each card's loaf holds its TP piece, from the stages' turn its stage's "
    "chunk",
    "[chapters][layout_3d][loaf]") {
    const ChapterSpec spec = chapter_test::load_spec("kind_layout_3d.yaml");
    const auto chapter = make_chapter(spec, Video{}, chapter_test::kMetrics);
    const Timeline timeline(spec, Video{}.fps);
    CHECK(loaves(chapter->scene_at(2)).empty());  // the rack on its own
    const RackGeometry geo(16, 8);
    // tp 2 at the TP turn (every slice) and the stages' turn (its stage's half); tp 4 after.
    for (const auto& [t, k, chunks] :
         {std::tuple{6.0, 0, false}, std::tuple{11.0, 0, true}, std::tuple{23.9, 1, true}}) {
        const engine::Layout3D l = engine::layout_3d(timeline.states()[k]);
        INFO("t = " << t << ", tp " << l.tp);
        const std::vector<Loaf> drawn = loaves(chapter->scene_at(t));
        REQUIRE(static_cast<int>(drawn.size()) == l.gpus);
        const int slices = loaf_slicing(timeline.states()[k].model.layers).slices;
        REQUIRE(slices == 8);  // 13B: 40 layers, five a slice
        const double gap = 2, piece = (kRackLoafW - gap * (l.tp - 1)) / l.tp;
        for (const engine::RankPlace& r : l.ranks) {
            INFO("GPU " << r.rank);
            const Loaf& loaf = drawn[r.rank];
            const Box card = geo.card(r.rank);
            CHECK(loaf.box.right() == Approx(card.right() - kRackLoafRight));
            CHECK(loaf.box.y == Approx(card.y + kRackLoafTop));
            CHECK(loaf.box.bottom() < card.bottom() - 26);
            const std::size_t held = chunks ? slices / l.pp : slices;
            REQUIRE(loaf.held.size() == held);
            CHECK(loaf.faint.size() == static_cast<std::size_t>(slices * l.tp) - held);
            for (const Rect& h : loaf.held) {
                CHECK(h.x == Approx(loaf.box.x + r.tp * (piece + gap)));
                const double half = loaf.box.y + loaf.box.h / 2;
                if (chunks) CHECK((h.y < half) == (r.pp == 0));
            }
        }
    }
}
