// tensor_parallel shows the engine's split, memory and traffic, and morphs from 2 to 4 GPUs.
#include "engine/tensor_parallel.hpp"

#include <catch2/catch.hpp>

#include "chapter_fixture.hpp"
#include "engine/comm.hpp"
#include "engine/memory.hpp"
#include "engine/report.hpp"
#include "story/format.hpp"

using namespace story;
using chapter_test::shows;

namespace {

ChapterSpec load() { return chapter_test::load_spec("kind_tensor_parallel.yaml", "tensor"); }
const Palette& kPalette = palette(ThemeName::dark);

int lanes(const Scene& s) {
    int n = 0;
    for (const PlacedText& p : texts_of(s))
        n += p.opacity > 0.99 && p.text.text.rfind("GPU ", 0) == 0 && p.text.x < 200;
    return n;
}

// Weight slices drawn in the MLP diagram: one of A and one of B per GPU.
std::size_t weight_slices(const Scene& s) {
    return chapter_test::rects(s, kPalette.weights, 96, 300, 1030, 900).size();
}

}  // namespace

TEST_CASE("tensor_parallel: two GPUs, traffic and memory from the engine",
          "[chapters][tensor_parallel]") {
    const ChapterSpec kSpec = load();
    const auto chapter = make_chapter(kSpec, Video{}, chapter_test::kMetrics);
    const engine::Config c = Timeline(kSpec).states()[0];
    REQUIRE(c.layout.tp == 2);
    const Scene s = chapter->scene_at(19.5);
    CHECK(lanes(s) == 2);
    CHECK(weight_slices(s) == 4);

    // s*b*h = 4096 x 1 x 4096 activations in 16-bit: 33.6 MB per all-reduce.
    CHECK(format_bytes(engine::tp_allreduce_buffer(c).value) ==
          "33.6" + std::string(kThinSpace) + "MB");
    CHECK(shows(s, "each one sums s·b·h activations: " +
                       format_bytes(engine::tp_allreduce_buffer(c).value)));
    // 4 all-reduces x 32 layers x 8 micro-batches, each 2(2-1)/2 x 33.6 MB: 34.4 GB per GPU.
    const engine::CommPerStep comm = engine::comm_per_step(c);
    CHECK(comm.tp_per_gpu.value == Approx(4.0 * 32 * 8 * 4096 * 4096 * 2));
    CHECK(shows(s, "per GPU per step: " + format_bytes(comm.tp_per_gpu.value) + ", which takes"));
    const engine::TpLinkTimes links = engine::tp_link_times(c);
    CHECK(shows(s, format_time(links.on_nvlink.value)));
    CHECK(shows(s, format_time(links.on_network.value)));
    CHECK(shows(s, "NVLink " + format_bandwidth(450e9)));
    // Memory: the weights split two ways next to no split at all.
    engine::Config one = c;
    one.layout.tp = 1;
    CHECK(shows(s, "weights " + format_bytes(engine::per_gpu_memory(c).weights.value)));
    CHECK(shows(s, "weights " + format_bytes(engine::per_gpu_memory(one).weights.value)));
    CHECK(engine::per_gpu_memory(c).weights.value ==
          Approx(engine::per_gpu_memory(one).weights.value / 2));
    CHECK(shows(s, format_bytes(engine::analyze(c).per_gpu.total.value)));  // the Per card stat
    // All four all-reduces of the layer have run: four lit pips.
    CHECK(chapter_test::rects(s, kPalette.comm, 1200, 600, 1824, 760).size() ==
          engine::kTpAllReducesPerLayer);
}

TEST_CASE("tensor_parallel: set tp 4 morphs to four lanes and quarter slices",
          "[chapters][tensor_parallel]") {
    const ChapterSpec kSpec = load();
    const auto chapter = make_chapter(kSpec, Video{}, chapter_test::kMetrics);
    const engine::Config c = Timeline(kSpec).states()[1];
    REQUIRE(c.layout.tp == 4);
    const Scene end = chapter->scene_at(25.9);
    CHECK(lanes(end) == 4);
    CHECK(weight_slices(end) == 8);
    CHECK(shows(end, "weights " + format_bytes(engine::per_gpu_memory(c).weights.value)));
    CHECK(
        shows(end, "per GPU per step: " + format_bytes(engine::comm_per_step(c).tp_per_gpu.value) +
                       ", which takes"));
    CHECK(shows(end, format_time(engine::tp_link_times(c).on_network.value)));
    // Mid-morph the weights count between the two engine values.
    const Scene mid = chapter->scene_at(21.5);
    CHECK_FALSE(shows(mid, "weights " + format_bytes(engine::per_gpu_memory(c).weights.value)));
}
