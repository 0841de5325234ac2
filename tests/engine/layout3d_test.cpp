// Rank placement: tp fastest, then pp, then dp; nodes hold consecutive ranks.
#include "engine/layout3d.hpp"

#include <catch2/catch.hpp>

using namespace engine;

TEST_CASE("16 GPUs as dp=4 x pp=2 x tp=2 on nodes of 8") {
    const Layout3D l = layout_3d({16, 2, 2, 0}, 8);
    CHECK(l.dp == 4);
    REQUIRE(l.ranks.size() == 16);
    CHECK(l.ranks[5] == RankPlace{5, 0, 5, 1, 0, 1});
    CHECK(l.ranks[6] == RankPlace{6, 0, 6, 1, 1, 0});
    CHECK(l.ranks[13] == RankPlace{13, 1, 5, 3, 0, 1});
    for (const RankPlace& r : l.ranks) CHECK(r.rank == (r.dp * 2 + r.pp) * 2 + r.tp);
    CHECK(l.tp_within_node());
    CHECK(l.pp_within_node());
    CHECK_FALSE(l.dp_within_node());
}

TEST_CASE("groups larger than a node cross it") {
    const Layout3D tp16 = layout_3d({16, 16, 1, 0}, 8);
    CHECK_FALSE(tp16.tp_within_node());
    CHECK(tp16.dp_within_node());  // dp = 1: every group is a single GPU
    const Layout3D pp_across = layout_3d({16, 4, 4, 0}, 8);
    CHECK(pp_across.tp_within_node());
    CHECK_FALSE(pp_across.pp_within_node());
    const Layout3D one_node = layout_3d({8, 1, 1, 0}, 8);
    CHECK(one_node.dp_within_node());
}
