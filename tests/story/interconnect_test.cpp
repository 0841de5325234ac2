// The interconnect chapter: bandwidths labelled honestly, every strategy's traffic timed on both
// links with the engine's figures, and the link each group uses marked from the engine's layout.
#include "engine/interconnect.hpp"

#include <algorithm>
#include <cmath>

#include "chapter_fixture.hpp"
#include "engine/report.hpp"
#include "story/scene/layout.hpp"
#include "story/scene/theme.hpp"
#include "story/text/format.hpp"
#include "story/time/timeline.hpp"
#include "tests/catch.hpp"
#include "tests/story/on_screen.hpp"

using namespace story;
using on_screen::beside;
using on_screen::cell;
using on_screen::Lines;
using on_screen::row_beside;
using on_screen::stat;

namespace {
const std::string ts = kThinSpace;

// The figure drawn right of a link's name in the scale at the frame's left edge (the bars under
// the nodes carry the same name).
std::string scale_of(const Scene& s, const std::string& link) {
    const auto all = on_screen::shown(s);
    const auto name = std::find_if(all.begin(), all.end(), [&](const on_screen::Shown& t) {
        return t.text == link && t.left < frame::kLeft + 1;
    });
    if (name == all.end()) return "(" + link + " not in the scale)";
    const on_screen::Shown* best = nullptr;
    for (const on_screen::Shown& t : all)
        if (t.left > name->right && std::abs(t.middle() - name->middle()) < name->size / 2 &&
            (!best || t.left < best->left))
            best = &t;
    return best ? best->text : "(nothing beside " + link + ")";
}

// A traffic row: bytes, time on NVLink, time on the network.
Lines timed(const engine::LinkTiming& row) {
    return {format_bytes(row.bytes.value), format_time(row.on_nvlink.value),
            format_time(row.on_network.value)};
}
}  // namespace

TEST_CASE("interconnect shows the engine's traffic on each link", "[chapters][interconnect]") {
    const ChapterSpec spec = chapter_test::load_spec("kind_interconnect.yaml");
    const auto chapter = make_chapter(spec, Video{}, chapter_test::kMetrics);
    const Timeline timeline(spec, Video{}.fps);
    const engine::Config& before = timeline.states()[0];
    REQUIRE(before.layout == engine::Parallel{16, 4, 2, 0});

    const Scene s = chapter->scene_at(17.5);
    CHECK(scale_of(s, "NVLink") == "900" + ts + "GB/s (450" + ts + "GB/s each way)");
    CHECK(beside(s, "InfiniBand NDR") == "50" + ts + "GB/s each way");
    // Both links named on the drawing: NVLink under each node's bar, InfiniBand between nodes.
    CHECK(on_screen::count(s, "NVLink") == 3);  // two bars and the scale
    CHECK(on_screen::count(s, "InfiniBand") == 1);
    CHECK(on_screen::count(s, "network") == 0);
    const engine::LinkTimings l = engine::link_timings(before);
    CHECK(row_beside(s, "Data parallel") == timed(l.dp));
    CHECK(row_beside(s, "Tensor parallel") == timed(l.tp));
    CHECK(row_beside(s, "Pipeline parallel") == timed(l.pp));
    CHECK(cell(s, "Tensor parallel", "bytes") == format_bytes(l.tp.bytes.value));
    CHECK(cell(s, "Tensor parallel", "time on NVLink") == format_time(l.tp.on_nvlink.value));
    CHECK(cell(s, "Tensor parallel", "time on the network") == format_time(l.tp.on_network.value));
    const engine::Report r = engine::analyze(before);
    CHECK(stat(s, "Per card") == chapter_test::per_card(r));
    CHECK(stat(s, "Comm / step") ==
          Lines{format_bytes(r.comm.sent_per_gpu().value), comm_detail(r.comm, Locale("en"))});
    CHECK(stat(s, "Bubble") == Lines{"11.1%"});  // (2-1)/(8+2-1)

    // Published by hand: a pipeline boundary carries s x b x h x 2 B forward and back for each
    // of m micro-batches: 2 x 8 x 4096 x 4096 x 2 B = 537 MB; on the network 537 MB / 50 GB/s.
    CHECK(cell(s, "Pipeline parallel", "bytes") == "537" + ts + "MB");
    CHECK(cell(s, "Pipeline parallel", "time on the network") == "10.7" + ts + "ms");
    // Data parallel over 2 replicas: 2(n-1)/n x B = B, the bf16 gradients of one TP shard of stage
    // 0.
    CHECK(l.dp.bytes.value == Approx(2.0 * engine::params_per_gpu(before.model, before.layout)));
    // One frame per group on its own link: DP crosses nodes, TP and PP stay inside one.
    CHECK(chapter_test::stroked(s, palette(ThemeName::dark).highlight) == 3);
}

TEST_CASE("interconnect: a set: of tp/pp moves the pipeline onto the network",
          "[chapters][interconnect]") {
    const ChapterSpec spec = chapter_test::load_spec("kind_interconnect.yaml");
    const auto chapter = make_chapter(spec, Video{}, chapter_test::kMetrics);
    const Timeline timeline(spec, Video{}.fps);
    const engine::Config& after = timeline.states()[1];
    REQUIRE(after.layout.dp() == 1);
    const engine::LinkTimings l = engine::link_timings(after);
    CHECK(l.pp.crosses_nodes);
    CHECK_FALSE(l.tp.crosses_nodes);

    const Scene end = chapter->scene_at(23.9);
    CHECK(row_beside(end, "Tensor parallel") == timed(l.tp));
    CHECK(on_screen::under(end, "Data parallel") == "one replica: no gradients to average");
    // No data-parallel traffic: bytes and both times.
    CHECK(row_beside(end, "Data parallel") == Lines{"—", "—", "—"});
    CHECK(chapter_test::stroked(end, palette(ThemeName::dark).highlight) == 2);

    // Mid-morph the numbers are one state's, never a blend of the two.
    const engine::LinkTimings b = engine::link_timings(timeline.states()[0]);
    const std::string mid = cell(chapter->scene_at(20), "Tensor parallel", "bytes");
    CHECK((mid == format_bytes(b.tp.bytes.value) || mid == format_bytes(l.tp.bytes.value)));
}

TEST_CASE("interconnect names a network that is no InfiniBand port a GPU generically",
          "[chapters][interconnect]") {
    ChapterSpec spec = chapter_test::load_spec("kind_interconnect.yaml");
    spec.config.cluster.network = engine::BytesPerSecond(40e9);
    const Scene s = make_chapter(spec, Video{}, chapter_test::kMetrics)->scene_at(17.5);
    CHECK(beside(s, "Network") == "40" + ts + "GB/s each way");
    CHECK(on_screen::count(s, "network") == 1);
    CHECK(on_screen::count(s, "InfiniBand") == 0);
}
