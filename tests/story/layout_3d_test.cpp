// The layout_3d chapter: every card's coordinates are engine::layout_3d's, the groups drawn are
// its groups, and the per-card memory is analyze()'s, before and after the re-slicing set:.
#include <catch2/catch.hpp>

#include "chapter_fixture.hpp"
#include "engine/layout3d.hpp"
#include "engine/report.hpp"
#include "story/format.hpp"
#include "story/timeline.hpp"
#include "tests/story/on_screen.hpp"

using namespace story;
using on_screen::appears_anywhere;
using on_screen::count;
using on_screen::Lines;
using on_screen::stat;

namespace {

// Every card's tags, read top down under its name, are its rank's coordinates.
void check_cards(const Scene& s, const engine::Layout3D& l) {
    for (const engine::RankPlace& r : l.ranks) {
        INFO("rank " << r.rank);
        CHECK(on_screen::column_under(s, "GPU " + std::to_string(r.rank)) ==
              Lines{"TP rank " + std::to_string(r.tp), "stage " + std::to_string(r.pp),
                    "replica " + std::to_string(r.dp)});
    }
    CHECK_FALSE(appears_anywhere(s, "GPU " + std::to_string(l.gpus)));
}

// Each tensor-parallel group's name stands over its first card (tp varies fastest: rank g·tp).
void check_tp_groups(const Scene& s, const engine::Layout3D& l) {
    for (int g = 0; g < l.dp * l.pp; ++g)
        CHECK(on_screen::under(s, "TP group " + std::to_string(g)) ==
              "GPU " + std::to_string(g * l.tp));
    CHECK_FALSE(appears_anywhere(s, "TP group " + std::to_string(l.dp * l.pp)));
}

// How many ranks have each coordinate value.
long ranks_with(const engine::Layout3D& l, int engine::RankPlace::*field, int value) {
    return std::count_if(l.ranks.begin(), l.ranks.end(),
                         [&](const engine::RankPlace& r) { return r.*field == value; });
}

}  // namespace

TEST_CASE("layout_3d draws the engine's placement", "[chapters][layout_3d]") {
    const ChapterSpec spec = chapter_test::load_spec("kind_layout_3d.yaml");
    const auto chapter = make_chapter(spec, Video{}, chapter_test::kMetrics);
    const Timeline timeline(spec);
    const engine::Config& before = timeline.states()[0];
    const engine::Layout3D l = engine::layout_3d(before.layout, before.cluster.gpus_per_node);
    REQUIRE(l.dp == 4);  // by hand: 16 / (tp 2 x pp 2)

    const Scene tp = chapter->scene_at(6);
    check_tp_groups(tp, l);
    check_cards(tp, l);
    for (int r = 0; r < l.tp; ++r)
        CHECK(count(tp, "TP rank " + std::to_string(r)) ==
              ranks_with(l, &engine::RankPlace::tp, r));
    CHECK(stat(tp, "Per card") == Lines{format_bytes(engine::analyze(before).per_gpu.total.value)});

    // Stage labels: one per stage of every replica, plus each card's own tag.
    const Scene pp = chapter->scene_at(11);
    for (int s = 0; s < l.pp; ++s)
        CHECK(count(pp, "stage " + std::to_string(s)) ==
              ranks_with(l, &engine::RankPlace::pp, s) + l.dp);

    const Scene dp = chapter->scene_at(15);
    for (int d = 0; d < l.dp; ++d)
        CHECK(count(dp, "replica " + std::to_string(d)) ==
              ranks_with(l, &engine::RankPlace::dp, d) + 1);
}

TEST_CASE("layout_3d re-slices on set: tp 4, pp 2", "[chapters][layout_3d]") {
    const ChapterSpec spec = chapter_test::load_spec("kind_layout_3d.yaml");
    const auto chapter = make_chapter(spec, Video{}, chapter_test::kMetrics);
    const Timeline timeline(spec);
    const engine::Config& after = timeline.states()[1];
    const engine::Layout3D l = engine::layout_3d(after.layout, after.cluster.gpus_per_node);
    REQUIRE(l.dp == 2);

    const Scene end = chapter->scene_at(23);
    check_cards(end, l);
    for (int d = 0; d < l.dp; ++d)
        CHECK(count(end, "replica " + std::to_string(d)) ==
              ranks_with(l, &engine::RankPlace::dp, d) + 1);
    CHECK_FALSE(appears_anywhere(end, "replica 2"));
    CHECK(stat(end, "Per card") == Lines{format_bytes(engine::analyze(after).per_gpu.total.value)});

    const Scene tp = chapter->scene_at(21);
    check_tp_groups(tp, l);
    CHECK(count(tp, "TP rank 3") == ranks_with(l, &engine::RankPlace::tp, 3));
}
