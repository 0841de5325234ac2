// The layout_3d chapter: every card's coordinates are engine::layout_3d's, the groups drawn are
// its groups, and the per-card memory is analyze()'s, before and after the re-slicing set:.
#include <tuple>

#include "chapter_fixture.hpp"
#include "engine/interconnect.hpp"
#include "engine/layout3d.hpp"
#include "engine/report.hpp"
#include "story/storyboard/settings.hpp"
#include "story/text/format.hpp"
#include "story/time/timeline.hpp"
#include "story/vocab/rack_vocab.hpp"
#include "tests/catch.hpp"
#include "tests/story/on_screen.hpp"

using namespace story;
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
    CHECK(count(s, "GPU " + std::to_string(l.gpus)) == 0);
}

// Each tensor-parallel group's name stands over its first card (tp varies fastest: rank g·tp).
void check_tp_groups(const Scene& s, const engine::Layout3D& l) {
    for (int g = 0; g < l.dp * l.pp; ++g)
        CHECK(on_screen::under(s, "TP group " + std::to_string(g)) ==
              "GPU " + std::to_string(g * l.tp));
    CHECK(count(s, "TP group " + std::to_string(l.dp * l.pp)) == 0);
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
    const Timeline timeline(spec, Video{}.fps);
    const engine::Config& before = timeline.states()[0];
    const engine::Layout3D l = engine::layout_3d(before);
    REQUIRE(l.dp == 4);  // by hand: 16 / (tp 2 x pp 2)

    const Scene tp = chapter->scene_at(6);
    check_tp_groups(tp, l);
    check_cards(tp, l);
    for (int r = 0; r < l.tp; ++r)
        CHECK(count(tp, "TP rank " + std::to_string(r)) ==
              ranks_with(l, &engine::RankPlace::tp, r));
    CHECK(stat(tp, "Per card") == chapter_test::per_card(engine::analyze(before)));

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
    const Timeline timeline(spec, Video{}.fps);
    const engine::Config& after = timeline.states()[1];
    const engine::Layout3D l = engine::layout_3d(after);
    REQUIRE(l.dp == 2);

    const Scene end = chapter->scene_at(23);
    check_cards(end, l);
    for (int d = 0; d < l.dp; ++d)
        CHECK(count(end, "replica " + std::to_string(d)) ==
              ranks_with(l, &engine::RankPlace::dp, d) + 1);
    CHECK(count(end, "replica 2") == 0);
    CHECK(stat(end, "Per card") == chapter_test::per_card(engine::analyze(after)));

    const Scene tp = chapter->scene_at(21);
    check_tp_groups(tp, l);
    CHECK(count(tp, "TP rank 3") == ranks_with(l, &engine::RankPlace::tp, 3));
}

namespace {

// The legend above a 4D or 5D rack: each axis split in two or more, with the link its groups
// cross as the engine places them.
// The tests' racks are H100s with one InfiniBand NDR port a GPU: between nodes the legend names it.
std::string legend_entry(const char* axis, int degree, const engine::Layout3D& l,
                         engine::RankGroup g) {
    return std::string(axis) + " " + std::to_string(degree) + " · " +
           (l.within_node(g) ? "NVLink" : "InfiniBand");
}

// A storyboard's layout_3d chapter with the engine's placement of each of its states.
struct Rack {
    explicit Rack(const std::string& storyboard)
        : spec(chapter_test::load_spec(storyboard)),
          chapter(make_chapter(spec, Video{}, chapter_test::kMetrics)),
          timeline(spec, Video{}.fps) {}
    engine::Layout3D layout(int state) const {
        const engine::Config& c = timeline.states()[state];
        REQUIRE(engine::infiniband_generation(c.cluster.network) == "NDR");
        return engine::layout_3d(c);
    }
    ChapterSpec spec;
    std::unique_ptr<Chapter> chapter;
    Timeline timeline;
};

}  // namespace

TEST_CASE("layout_3d tags every card with its CP rank and outlines the engine's CP groups",
          "[chapters][layout_3d]") {
    const Rack rack("layout_3d_cp.yaml");
    const engine::Layout3D l = rack.layout(0);
    REQUIRE(l.cp == 2);
    REQUIRE(l.dp == 2);  // by hand: 16 / (tp 2 x pp 2 x cp 2)

    const Scene cp = rack.chapter->scene_at(10);
    for (const engine::RankPlace& r : l.ranks) {
        INFO("rank " << r.rank);
        CHECK(on_screen::column_under(cp, "GPU " + std::to_string(r.rank)) ==
              Lines{"TP rank " + std::to_string(r.tp), "CP rank " + std::to_string(r.cp),
                    "stage " + std::to_string(r.pp), "replica " + std::to_string(r.dp)});
    }
    // One CP group per (replica, stage, TP rank); each named over its lowest rank.
    const int groups = l.gpus / l.cp;
    for (int g = 0; g < groups; ++g) CHECK(count(cp, "CP group " + std::to_string(g)) == 1);
    CHECK(count(cp, "CP group " + std::to_string(groups)) == 0);
    // tp 2: the second CP group starts at GPU 1 and holds GPU 3 (cp varies after tp).
    CHECK(on_screen::under(cp, "CP group 1") == "GPU 1");
    for (const auto& [axis, degree, group] : {std::tuple{"tp", l.tp, engine::RankGroup::tp},
                                              {"cp", l.cp, engine::RankGroup::cp},
                                              {"pp", l.pp, engine::RankGroup::pp},
                                              {"dp", l.dp, engine::RankGroup::dp}})
        CHECK(count(cp, legend_entry(axis, degree, l, group)) == 1);
    CHECK(count(cp, "cp 2 · NVLink") == 1);  // two CP ranks sit two apart inside a node
    CHECK(count(cp, "ep 1 · NVLink") == 0);

    // After pp: 1 the pipeline leaves the legend and the replicas double.
    const Scene end = rack.chapter->scene_at(23.5);
    const engine::Layout3D after = rack.layout(1);
    CHECK(count(end, legend_entry("dp", after.dp, after, engine::RankGroup::dp)) == 1);
    CHECK(count(end, legend_entry("pp", 2, l, engine::RankGroup::pp)) == 0);
}

TEST_CASE("a rack names the network between its nodes InfiniBand only where it is InfiniBand",
          "[chapters][layout_3d]") {
    const Locale en("en");
    engine::Cluster c = story::default_config().cluster;
    for (double gbits : {100.0, 200.0, 400.0, 800.0}) {
        c.network = engine::BytesPerSecond{gbits * 1e9 / 8};
        CHECK(rack_network_name(c, en) == "InfiniBand");
    }
    for (double gbytes : {25.0, 12.5, 3.125}) {  // 200 and 100 Gb Ethernet, a 25 Gb port
        c.network = engine::BytesPerSecond{gbytes * 1e9 * 1.01};
        CHECK(rack_network_name(c, en) == "network");
    }
}

TEST_CASE("layout_3d draws Mixtral's expert-parallel groups from the engine's placement",
          "[chapters][layout_3d]") {
    const Rack rack("layout_3d_ep.yaml");
    const engine::Layout3D l = rack.layout(0);
    REQUIRE(l.ep == 4);
    REQUIRE(l.dp == 8);

    const Scene ep = rack.chapter->scene_at(19);
    for (const engine::RankPlace& r : l.ranks) {
        INFO("rank " << r.rank);
        CHECK(on_screen::column_under(ep, "GPU " + std::to_string(r.rank)) ==
              Lines{"TP rank " + std::to_string(r.tp), "stage " + std::to_string(r.pp),
                    "replica " + std::to_string(r.dp), "EP rank " + std::to_string(r.dp % l.ep)});
    }
    // An EP group: ep consecutive replicas' ranks of one TP rank (dp / ep, tp shared).
    const int groups = l.gpus / l.ep;
    for (int g = 0; g < groups; ++g) CHECK(count(ep, "EP group " + std::to_string(g)) == 1);
    CHECK(on_screen::under(ep, "EP group 1") == "GPU 1");
    CHECK(on_screen::under(ep, "EP group 2") == "GPU 8");
    CHECK(count(ep, legend_entry("ep", 4, l, engine::RankGroup::ep)) == 1);
    CHECK(count(ep, legend_entry("dp", 8, l, engine::RankGroup::dp)) == 1);
    CHECK(count(ep, legend_entry("pp", 1, l, engine::RankGroup::pp)) == 0);

    // After set: {ep: 2} (tp 4 by then): pairs of replicas, each card's EP rank its replica mod 2.
    const engine::Layout3D pairs = rack.layout(2);
    REQUIRE(pairs.ep == 2);
    const Scene end = rack.chapter->scene_at(29.5);
    CHECK(count(end, legend_entry("ep", 2, pairs, engine::RankGroup::ep)) == 1);
    for (const engine::RankPlace& r : pairs.ranks)
        CHECK(on_screen::column_under(end, "GPU " + std::to_string(r.rank)).back() ==
              "EP rank " + std::to_string(r.dp % 2));
}
