// tensor_parallel shows the engine's split, memory and traffic, and morphs from 2 to 4 GPUs.
#include "engine/tensor_parallel.hpp"

#include <algorithm>

#include "chapter_fixture.hpp"
#include "engine/comm.hpp"
#include "engine/memory.hpp"
#include "engine/report.hpp"
#include "story/text/format.hpp"
#include "tests/catch.hpp"
#include "tests/story/on_screen.hpp"

using namespace story;
using on_screen::beside;
using on_screen::Lines;
using on_screen::stat;
using on_screen::under;

namespace {

ChapterSpec load() { return chapter_test::load_spec("kind_tensor_parallel.yaml", "tensor"); }
const Palette& kPalette = palette(ThemeName::dark);

// GPU lanes of the MLP diagram: their names stand in the left margin.
long lanes(const Scene& s) {
    const auto texts = on_screen::shown(s);
    return std::count_if(texts.begin(), texts.end(), [](const on_screen::Shown& t) {
        return t.text.starts_with("GPU ") && t.left < 200;
    });
}

const std::string kNvlink = "NVLink " + format_bandwidth(450e9);
const std::string kNetwork = "network " + format_bandwidth(50e9);

// The traffic working under its heading: what each all-reduce sums, the bytes per step, and the
// links that would carry them (their times stand beside them).
Lines traffic(const Scene& s) { return on_screen::column_under(s, "All-reduces per layer"); }
Lines traffic_of(const engine::Config& c) {
    return {
        "each one sums s·b·h activations: " + format_bytes(engine::tp_allreduce_buffer(c).value),
        "tp traffic per GPU per step: " + format_bytes(engine::comm_per_step(c).tp_per_gpu.value) +
            ", which takes",
        kNvlink, kNetwork};
}

// Weight slices drawn in the MLP diagram (right of the lanes' names): one of A and one of B per
// GPU.
std::size_t weight_slices(const Scene& s) {
    return chapter_test::rects(s, kPalette.weights, 200, 300, 1030, 900).size();
}

// The pieces of the loaf each lane holds, in the left margin under its name, lanes top down.
std::vector<Rect> loaf_pieces(const Scene& s) {
    std::vector<Rect> held;
    for (const chapter_test::Loaf& loaf : chapter_test::loaves(s)) {
        CHECK(loaf.box.x >= 96);
        CHECK(loaf.box.right() <= 200);
        for (const Rect& r : loaf.held)
            if (r.fill == kPalette.weights) held.push_back(r);
    }
    return held;
}

}  // namespace

TEST_CASE("tensor_parallel: two GPUs, traffic and memory from the engine",
          "[chapters][tensor_parallel]") {
    const ChapterSpec kSpec = load();
    const auto chapter = make_chapter(kSpec, Video{}, chapter_test::kMetrics);
    const engine::Config c = Timeline(kSpec, Video{}.fps).states()[0];
    REQUIRE(c.layout.tp == 2);
    const Scene s = chapter->scene_at(19.5);
    CHECK(lanes(s) == 2);
    CHECK(weight_slices(s) == 4);

    // s*b*h = 4096 x 1 x 4096 activations in 16-bit: 33.6 MB per all-reduce.
    CHECK(format_bytes(engine::tp_allreduce_buffer(c).value) ==
          "33.6" + std::string(kThinSpace) + "MB");
    // 4 all-reduces x 32 layers x 8 micro-batches, each 2(2-1)/2 x 33.6 MB: 34.4 GB per GPU.
    const engine::CommPerStep comm = engine::comm_per_step(c);
    CHECK(comm.tp_per_gpu.value == Approx(4.0 * 32 * 8 * 4096 * 4096 * 2));
    CHECK(traffic(s) == traffic_of(c));
    const engine::TpLinkTimes links = engine::tp_link_times(c);
    CHECK(beside(s, kNvlink) == format_time(links.on_nvlink.value));
    CHECK(beside(s, kNetwork) == format_time(links.on_network.value));
    // Memory: the weights split two ways next to no split at all.
    engine::Config one = c;
    one.layout.tp = 1;
    CHECK(under(s, "tp = 2") == "weights " + format_bytes(engine::per_gpu_memory(c).weights.value));
    CHECK(under(s, "tp = 1") ==
          "weights " + format_bytes(engine::per_gpu_memory(one).weights.value));
    CHECK(engine::per_gpu_memory(c).weights.value ==
          Approx(engine::per_gpu_memory(one).weights.value / 2));
    CHECK(stat(s, "Per card") == chapter_test::per_card(engine::analyze(c)));
    // All four all-reduces of the layer have run: four lit pips.
    CHECK(chapter_test::rects(s, kPalette.comm, 1200, 600, 1824, 760).size() ==
          engine::kTpAllReducesPerLayer);
}

TEST_CASE("tensor_parallel: set tp 4 morphs to four lanes and quarter slices",
          "[chapters][tensor_parallel]") {
    const ChapterSpec kSpec = load();
    const auto chapter = make_chapter(kSpec, Video{}, chapter_test::kMetrics);
    const engine::Config c = Timeline(kSpec, Video{}.fps).states()[1];
    REQUIRE(c.layout.tp == 4);
    const Scene end = chapter->scene_at(25.9);
    CHECK(lanes(end) == 4);
    CHECK(weight_slices(end) == 8);
    const std::string after = "weights " + format_bytes(engine::per_gpu_memory(c).weights.value);
    CHECK(under(end, "tp = 4") == after);
    CHECK(traffic(end) == traffic_of(c));
    CHECK(beside(end, kNetwork) == format_time(engine::tp_link_times(c).on_network.value));
    // Mid-morph tp and the weights are one state's: never "tp = 3", never a blended weight.
    const Scene mid = chapter->scene_at(21.5);
    CHECK(on_screen::count(mid, "tp = 3") == 0);
    const std::string before =
        "weights " +
        format_bytes(
            engine::per_gpu_memory(Timeline(kSpec, Video{}.fps).states()[0]).weights.value);
    CHECK((under(mid, "tp = 2") == before || under(mid, "tp = 4") == after));
}

// Under each lane's name the model's loaf, every slice cut lengthwise into tp pieces: GPU i holds
// the i-th piece of all eight slices (the rest faint), a half at tp = 2 and a quarter at tp = 4.
TEST_CASE("tensor_parallel: each lane holds its lengthwise piece of every slice of the loaf",
          "[chapters][tensor_parallel]") {
    const auto chapter = make_chapter(load(), Video{}, chapter_test::kMetrics);
    for (const auto& [t, tp] : {std::pair{12.0, 2}, std::pair{23.9, 4}}) {
        const std::vector<Rect> held = loaf_pieces(chapter->scene_at(t));
        REQUIRE(held.size() == 8u * tp);
        double left = held.front().x;
        for (const Rect& r : held) left = std::min(left, r.x);
        const double whole = 72, gap = 2, piece = (whole - gap * (tp - 1)) / tp;
        for (int k = 0; k < 8 * tp; ++k) {
            const int lane = k / 8;  // lanes drawn top down, eight slices each
            CHECK(held[k].w == Approx(piece));
            CHECK(held[k].x == Approx(left + lane * (piece + gap)));
        }
    }
}
