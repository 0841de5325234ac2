// Rank placement: tp fastest, then pp, then dp; nodes hold consecutive ranks.
#include "engine/layout3d.hpp"

#include <map>

#include "tests/catch.hpp"

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

TEST_CASE("within_node agrees with the listed ranks for every small layout") {
    // The oracle: every group's ranks, from layout_3d's list, on one node or not.
    const auto listed = [](const engine::Layout3D& l, auto key) {
        std::map<long long, int> node;
        for (const engine::RankPlace& r : l.ranks) {
            const auto [it, fresh] = node.emplace(key(r), r.node);
            if (!fresh && it->second != r.node) return false;
        }
        return true;
    };
    using engine::RankGroup;
    int layouts = 0;
    for (int per_node : {1, 2, 3, 4, 6, 8}) {
        for (int gpus = 1; gpus <= 24; ++gpus) {
            for (int tp = 1; tp <= gpus; ++tp) {
                for (int pp = 1; tp * pp <= gpus; ++pp) {
                    for (int cp = 1; tp * pp * cp <= gpus; ++cp) {
                        if (gpus % (tp * pp * cp) != 0) continue;
                        const int dp = gpus / (tp * pp * cp), replicas = dp * cp;
                        for (int ep = 1; ep <= dp; ++ep) {
                            if (dp % ep != 0) continue;
                            for (int shard = 1; shard <= replicas; ++shard) {
                                if (replicas % shard != 0) continue;
                                engine::Parallel p{gpus, tp, pp, 3};
                                p.cp = cp, p.ep = ep, p.shard_group = shard;
                                const engine::Layout3D l = engine::layout_3d(p, per_node);
                                INFO(gpus << " GPUs, " << per_node << " a node, tp " << tp
                                          << ", pp " << pp << ", cp " << cp << ", ep " << ep
                                          << ", shard " << shard);
                                const auto q = [&](auto& r) { return r.dp * cp + r.cp; };
                                const std::vector<std::pair<RankGroup, bool>> expected = {
                                    {RankGroup::tp,
                                     listed(l, [&](auto& r) { return (q(r) * pp + r.pp); })},
                                    {RankGroup::cp, listed(l,
                                                           [&](auto& r) {
                                                               return (r.dp * pp + r.pp) * tp +
                                                                      r.tp;
                                                           })},
                                    {RankGroup::pp,
                                     listed(l, [&](auto& r) { return q(r) * tp + r.tp; })},
                                    {RankGroup::dp,
                                     listed(l, [&](auto& r) { return r.pp * tp + r.tp; })},
                                    {RankGroup::ep,
                                     listed(l,
                                            [&](auto& r) {
                                                return ((r.dp / ep * pp + r.pp) * cp + r.cp) * tp +
                                                       r.tp;
                                            })},
                                    {RankGroup::shard,
                                     listed(l,
                                            [&](auto& r) {
                                                return (q(r) / shard * pp + r.pp) * tp + r.tp;
                                            })},
                                    {RankGroup::replicas, listed(l, [&](auto& r) {
                                         return (q(r) % shard * pp + r.pp) * tp + r.tp;
                                     })}};
                                for (const auto& [group, within] : expected) {
                                    INFO("group " << int(group));
                                    CHECK(engine::within_node(p, per_node, group) == within);
                                    CHECK(l.within_node(group) == within);
                                }
                                ++layouts;
                            }
                        }
                    }
                }
            }
        }
    }
    CHECK(layouts > 1000);
}

TEST_CASE("a group's span: the nodes it crosses and its members in each") {
    using engine::GroupSpan;
    using engine::RankGroup;
    // The benchmark's tp 16 over 2 nodes; its dp groups with tp 2 (4 members a node).
    CHECK(group_span({16, 16, 1, 0}, 8, RankGroup::tp) == GroupSpan{2, 8});
    CHECK(group_span({64, 2, 1, 0}, 8, RankGroup::dp) == GroupSpan{8, 4});
    CHECK(group_span({64, 8, 2, 0}, 8, RankGroup::pp) == GroupSpan{2, 1});
    CHECK(group_span({64, 8, 1, 0}, 8, RankGroup::dp) == GroupSpan{8, 1});
    // The oracle for every power-of-two layout up to 32 GPUs: rank 0's group from the listed
    // ranks, its distinct nodes and its members in node 0.
    const auto listed = [](const engine::Layout3D& l, auto key) {
        std::map<int, int> nodes;
        for (const engine::RankPlace& r : l.ranks)
            if (key(r) == key(l.ranks[0])) ++nodes[r.node];
        return GroupSpan{int(nodes.size()), nodes[0]};
    };
    int layouts = 0;
    for (int per_node : {2, 4, 8}) {
        for (int gpus = 1; gpus <= 32; gpus *= 2) {
            for (int tp = 1; tp <= gpus; tp *= 2) {
                for (int pp = 1; tp * pp <= gpus; pp *= 2) {
                    for (int cp = 1; tp * pp * cp <= gpus; cp *= 2) {
                        engine::Parallel p{gpus, tp, pp, 0};
                        p.cp = cp;
                        const engine::Layout3D l = engine::layout_3d(p, per_node);
                        INFO(gpus << " GPUs, " << per_node << " a node, tp " << tp << ", pp " << pp
                                  << ", cp " << cp);
                        const int dp = gpus / (tp * pp * cp);
                        const auto q = [&](auto& r) { return r.dp * cp + r.cp; };
                        CHECK(group_span(p, per_node, RankGroup::tp) ==
                              listed(l, [&](auto& r) { return q(r) * pp + r.pp; }));
                        CHECK(group_span(p, per_node, RankGroup::pp) ==
                              listed(l, [&](auto& r) { return q(r) * tp + r.tp; }));
                        CHECK(group_span(p, per_node, RankGroup::cp) ==
                              listed(l, [&](auto& r) { return (r.dp * pp + r.pp) * tp + r.tp; }));
                        CHECK(group_span(p, per_node, RankGroup::dp) ==
                              listed(l, [&](auto& r) { return r.pp * tp + r.tp; }));
                        layouts += dp > 0;
                    }
                }
            }
        }
    }
    CHECK(layouts == 378);
}
