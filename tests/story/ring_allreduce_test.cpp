// ring_allreduce: the bytes and times read out are the engine's, and the chunks drawn follow
// engine::ring_allreduce_schedule step by step.
#include <algorithm>

#include "engine/comm.hpp"
#include "engine/interconnect.hpp"
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
                    " each way: " + format_time(r8.comm.dp_time.value),
                "Nodes of 8 GPUs: NVLink 450" + ts + "GB/s each way inside, InfiniBand NDR 50" +
                    ts + "GB/s between"});
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
                "InfiniBand NDR 50" + ts + "GB/s each way: " + format_time(r16.comm.dp_time.value),
                // Under the read-out, both links of the nodes (the test below).
                "Nodes of 8 GPUs: NVLink 450" + ts + "GB/s each way inside, InfiniBand NDR 50" +
                    ts + "GB/s between"});
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

namespace {
// The bands behind each node's cards: paths stroked in the grid colour 190 px wide.
std::vector<Path> node_bands(const Scene& s) {
    std::vector<Path> out;
    for (const Item& item : s.items)
        if (const auto* path = std::get_if<Path>(&item.shape))
            if (path->stroke == palette(ThemeName::dark).grid && path->width == 190 &&
                item.opacity > 0)
                out.push_back(*path);
    return out;
}
// How far left and right a path reaches.
std::pair<double, double> x_extent(const Path& p) {
    const auto [lo, hi] = std::minmax_element(p.points.begin(), p.points.end(),
                                              [](Point a, Point b) { return a.x < b.x; });
    return {lo->x, hi->x};
}
}  // namespace

// One node: one closed band behind the whole ring. Two nodes: a band each, GPU 0-7 on the right
// half and GPU 8-15 on the left, the network's links crossing the gaps at the top and bottom; both
// links named with the engine's bandwidths.
TEST_CASE("ring_allreduce draws each node's cards on a band and names both links",
          "[chapters][ring]") {
    const ChapterSpec spec = load_spec("kind_ring_allreduce.yaml", "ring");
    const auto chapter = make_chapter(spec, Video{}, kMetrics);
    const std::vector<Path> one = node_bands(chapter->scene_at(15.5));
    REQUIRE(one.size() == 1);
    CHECK(one.front().closed);

    const Scene end = chapter->scene_at(23.9);
    const std::vector<Path> two = node_bands(end);
    REQUIRE(two.size() == 2);
    const double middle = 1920 / 2.0;
    CHECK(x_extent(two[0]).first > middle);   // node 0: GPU 0-7, clockwise from the top centre
    CHECK(x_extent(two[1]).second < middle);  // node 1: GPU 8-15
    CHECK_FALSE(two[0].closed);
    engine::Config sixteen = spec.config;
    sixteen.layout.gpus = 16;
    sixteen.cluster.nodes = 2;
    const std::string nvlink =
        format_bandwidth(engine::nvlink_per_direction(sixteen.cluster).value);
    const std::string network = format_bandwidth(sixteen.cluster.network.value);
    CHECK(engine::infiniband_generation(sixteen.cluster.network) == "NDR");
    CHECK(on_screen::count(end, "Nodes of 8 GPUs: NVLink " + nvlink +
                                    " each way inside, InfiniBand NDR " + network + " between") ==
          1);
}

// The global batch, the engine's sequences per step, is drawn whole, then cut into one slice per
// card that flies to its card.
TEST_CASE("ring_allreduce splits the global batch into one slice per card", "[chapters][ring]") {
    const ChapterSpec spec = load_spec("kind_ring_allreduce.yaml", "ring");
    const auto chapter = make_chapter(spec, Video{}, kMetrics);
    const engine::Report r = engine::analyze(spec.config);
    const auto global = static_cast<long long>(r.flops.tokens_per_step / 4096);
    CHECK(global == 8LL * spec.config.training.micro_batch * spec.config.training.micro_batches);
    const Palette& p = palette(ThemeName::dark);
    const auto slices = [&](double t) {
        return chapter_test::rects(chapter->scene_at(t), p.activations, 600, 530, 1320, 600);
    };
    // Whole: eight slices edge to edge (1 px apart for their outline) under the label.
    const Scene whole = chapter->scene_at(2.7);
    CHECK(on_screen::count(whole, "Global batch: " + std::to_string(global) + " sequences, " +
                                      std::to_string(global / 8) + " per card") == 1);
    const std::vector<Rect> before = slices(2.7), cut = slices(3.45);
    REQUIRE(before.size() == 8);
    REQUIRE(cut.size() == 8);
    CHECK(before[1].x - (before[0].x + before[0].w) == Approx(0).margin(1e-6));
    CHECK(cut[1].x - (cut[0].x + cut[0].w) == Approx(6));
    // Flown: each slice on its card, none left in the batch's place.
    CHECK(slices(5.0).empty());
}
