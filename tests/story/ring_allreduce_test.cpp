// ring_allreduce: the bytes and times read out are the engine's, and the chunks drawn follow
// engine::ring_allreduce_schedule step by step.
#include "engine/comm.hpp"
#include "engine/report.hpp"
#include "story/scene/theme.hpp"
#include "story/text/format.hpp"
#include "tests/catch.hpp"
#include "tests/story/chapter_fixture.hpp"
#include "tests/story/on_screen.hpp"

using namespace story;
using chapter_test::count_rects;
using chapter_test::kMetrics;
using chapter_test::load_spec;
using on_screen::Lines;
using on_screen::stat;

namespace {
const std::string ts = kThinSpace;

// Every card of an n-card ring is labelled once, and no other.
void check_ring_cards(const Scene& s, int n) {
    for (int k = 0; k < n; ++k) CHECK(on_screen::count(s, "GPU " + std::to_string(k)) == 1);
    CHECK(on_screen::count(s, "GPU " + std::to_string(n)) == 0);
}

// The row under a heading inside the ring: the gradient buffer's chunks, numbered.
Lines first_row_under(const Scene& s, const std::string& heading) {
    const std::vector<Lines> rows = on_screen::rows_under(s, heading);
    return rows.empty() ? Lines{"(nothing under " + heading + ")"} : rows.front();
}
const Lines kChunks{"0", "1", "2", "3", "4", "5", "6", "7"};
}  // namespace

TEST_CASE("ring_allreduce reads out 2(n-1)/n x B and its time on the link", "[chapters][ring]") {
    const ChapterSpec spec = load_spec("kind_ring_allreduce.yaml", "ring");
    const auto chapter = make_chapter(spec, Video{}, kMetrics);

    engine::Config eight = spec.config;
    REQUIRE(eight.layout.gpus == 8);
    const engine::Report r8 = engine::analyze(eight);
    // Hand-computed: 7B bf16 gradients are 14 GB; 2 x 7/8 x 14 GB = 24.5 GB at 450 GB/s each way.
    CHECK(format_bytes(r8.comm.dp_per_gpu.value) == "24.5" + ts + "GB");
    CHECK(format_time(r8.comm.dp_time.value) == "54.4" + ts + "ms");
    const Scene at15 = chapter->scene_at(15.5);
    // The working, line under line: the formula, its bytes, their time on the ring's link.
    CHECK(on_screen::column_under(at15, "Each card sends 2 × 7/8 × 14" + ts + "GB") ==
          Lines{"= " + format_bytes(r8.comm.dp_per_gpu.value) + " per step",
                "NVLink " +
                    format_bandwidth(engine::group_bandwidth(eight, engine::Group::dp).value) +
                    " each way: " + format_time(r8.comm.dp_time.value)});
    CHECK(stat(at15, "Per card") == chapter_test::per_card(r8));
    CHECK(stat(at15, "Comm / step") ==
          Lines{format_bytes(r8.comm.dp_per_gpu.value), comm_detail(r8.comm, Locale("en"))});
    CHECK(stat(at15, "Bubble") == Lines{"0%"});
    check_ring_cards(at15, 8);

    // After `set: {gpus: 16}` the ring spans two nodes: the network carries it.
    engine::Config sixteen = eight;
    sixteen.layout.gpus = 16;
    const engine::Report r16 = engine::analyze(sixteen);
    CHECK(format_bytes(r16.comm.dp_per_gpu.value) == "26.3" + ts + "GB");  // 2 x 15/16 x 14 GB
    CHECK(format_time(r16.comm.dp_time.value) == "525" + ts + "ms");       // at 50 GB/s
    const Scene end = chapter->scene_at(23.9);
    CHECK(on_screen::column_under(end, "Each card sends 2 × 15/16 × 14" + ts + "GB") ==
          Lines{"= " + format_bytes(r16.comm.dp_per_gpu.value) + " per step",
                "Network 50" + ts + "GB/s each way: " + format_time(r16.comm.dp_time.value)});
    CHECK(stat(end, "Comm / step") ==
          Lines{format_bytes(r16.comm.dp_per_gpu.value), comm_detail(r16.comm, Locale("en"))});
    check_ring_cards(end, 16);
    // The memory bars do not move with N: data parallelism keeps a full copy per card.
    CHECK(r16.per_gpu.total == r8.per_gpu.total);
    CHECK(stat(end, "Per card") == chapter_test::per_card(r16));
}

TEST_CASE("ring_allreduce draws the engine's schedule chunk by chunk", "[chapters][ring]") {
    const ChapterSpec spec = load_spec("kind_ring_allreduce.yaml", "ring");
    const auto chapter = make_chapter(spec, Video{}, kMetrics);
    const engine::RingSchedule ring = engine::ring_allreduce_schedule(8);
    const Palette& p = palette(ThemeName::dark);
    // Steps start at 5.2 s and last 0.6 s; chunks travel for the first 70% of each.
    for (int step = 0; step < ring.steps(); ++step) {
        const Scene s = chapter->scene_at(5.2 + 0.6 * step + 0.2);
        int moving = 0;
        for (const auto& x : ring.transfers) moving += x.step == step;
        INFO("step " << step);
        CHECK(count_rects(s, 30, 30, p.gradients) == moving);
        const bool gather = step >= 7;
        CHECK(first_row_under(s, std::string(gather ? "All-gather" : "Reduce-scatter") +
                                     " · step " + std::to_string((gather ? step - 7 : step) + 1) +
                                     " of 7") == kChunks);
    }
    // Full cells (all 8 contributions summed): none before, one per card once reduce-scatter
    // is done (the chunk it owns), all of them after the all-gather.
    const double strip = 24;
    const auto full_cells = [&](double t) {
        return count_rects(chapter->scene_at(t), 16.25, strip, p.gradients);
    };
    CHECK(full_cells(4.5) == 0);
    CHECK(full_cells(5.2 + 0.6 * 7 - 0.05) == 8);
    CHECK(full_cells(13.8) == 64);
    CHECK(first_row_under(chapter->scene_at(13.8), "Every card holds the sum") == kChunks);
}
