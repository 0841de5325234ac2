// The layout_3d chapter: every card's coordinates are engine::layout_3d's, the groups drawn are
// its groups, and the per-card memory is analyze()'s, before and after the re-slicing set:.
#include <catch2/catch.hpp>

#include "chapter_fixture.hpp"
#include "engine/layout3d.hpp"
#include "engine/report.hpp"
#include "story/format.hpp"
#include "story/timeline.hpp"

using namespace story;
using chapter_test::count;
using chapter_test::shows;

namespace {

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
    for (int g = 0; g < l.dp * l.pp; ++g) CHECK(shows(tp, "TP group " + std::to_string(g)));
    CHECK_FALSE(shows(tp, "TP group " + std::to_string(l.dp * l.pp)));
    for (int r = 0; r < l.tp; ++r)
        CHECK(count(tp, "TP rank " + std::to_string(r)) ==
              ranks_with(l, &engine::RankPlace::tp, r));
    CHECK(shows(tp, "GPU 15"));
    CHECK_FALSE(shows(tp, "GPU 16"));
    CHECK(shows(tp, format_bytes(engine::analyze(before).per_gpu.total.value)));

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
    for (int d = 0; d < l.dp; ++d)
        CHECK(count(end, "replica " + std::to_string(d)) ==
              ranks_with(l, &engine::RankPlace::dp, d) + 1);
    CHECK_FALSE(shows(end, "replica 2"));
    CHECK(shows(end, format_bytes(engine::analyze(after).per_gpu.total.value)));

    const Scene tp = chapter->scene_at(21);
    for (int g = 0; g < l.dp * l.pp; ++g) CHECK(shows(tp, "TP group " + std::to_string(g)));
    CHECK_FALSE(shows(tp, "TP group 4"));
    CHECK(count(tp, "TP rank 3") == ranks_with(l, &engine::RankPlace::tp, 3));
}
