// zero_stages: the per-card model states of each stage and the reduction against plain data
// parallelism are the engine's, and match ZeRO Table 1 at 64 cards.
#include <catch2/catch.hpp>

#include "engine/memory.hpp"
#include "engine/report.hpp"
#include "story/format.hpp"
#include "tests/story/shard_test_kit.hpp"

using namespace story;
using shard_test::shows;

namespace {
const ApproxTextMetrics kMetrics;
const std::string ts = kThinSpace;

double states(engine::Config c, int zero) {
    c.layout.zero = zero;
    const engine::PerGpu g = engine::per_gpu_memory(c);
    return (g.weights + g.gradients + g.optimizer).value;
}
}  // namespace

TEST_CASE("zero_stages steps through the stages with the engine's figures", "[chapters][zero]") {
    const ChapterSpec spec = shard_test::load_spec("kind_zero_stages.yaml", "zero");
    const auto chapter = make_chapter(spec, Video{}, kMetrics);
    engine::Config c = spec.config;
    REQUIRE(c.layout.gpus == 8);
    // Times after each `set: {zero: k}` morph has settled, and before the next.
    const double settled[4] = {3.5, 8.5, 13.5, 19.5};
    for (int z = 0; z < 4; ++z) {
        INFO("stage " << z);
        c.layout.zero = z;
        const engine::Report r = engine::analyze(c);
        const Scene s = chapter->scene_at(settled[z]);
        CHECK(shows(s, format_bytes(states(c, z))));
        CHECK(shows(s, format_sig3(states(c, 0) / states(c, z)) + "×"));
        CHECK(shows(s, format_bytes(r.per_gpu.total.value)));  // Per card
        CHECK(shows(s, format_bytes(r.comm.dp_per_gpu.value)));
        CHECK(shows(s, format_time(r.comm.dp_time.value)));
        for (int k = 0; k < 8; ++k) CHECK(shows(s, "GPU " + std::to_string(k)));
    }
    // Hand-computed at N = 8 for 7B: 112 GB, then 14 + 14 + 84/8, then 14 + 14/8 + 84/8, then
    // 112/8.
    const Scene end3 = chapter->scene_at(19.5);
    CHECK(shows(end3, "112" + ts + "GB"));
    CHECK(shows(end3, "38.5" + ts + "GB"));
    CHECK(shows(end3, "26.3" + ts + "GB"));
    CHECK(shows(end3, "14" + ts + "GB"));
    CHECK(shows(end3, "8×"));
    // Before stage 1 is reached its row is not shown.
    CHECK(!shows(chapter->scene_at(3.5), "38.5" + ts + "GB"));

    // `set: {gpus: 64}`: six cards, a gap, and GPU 63.
    const Scene end = chapter->scene_at(25.9);
    CHECK(shows(end, "GPU 63"));
    CHECK(shows(end, "…"));
    CHECK(!shows(end, "GPU 7"));
}

TEST_CASE("zero_stages at 64 cards with 7.5B parameters is ZeRO Table 1", "[chapters][zero]") {
    ChapterSpec spec = shard_test::load_spec("kind_zero_stages.yaml", "zero");
    spec.config.model = engine::nominal_model(7.5e9);
    const auto chapter = make_chapter(spec, Video{}, kMetrics);
    const Scene end = chapter->scene_at(25.9);  // after zero 1, 2, 3 and gpus 64
    CHECK(shows(end, "120" + ts + "GB"));
    CHECK(shows(end, "31.4" + ts + "GB"));
    CHECK(shows(end, "16.6" + ts + "GB"));
    CHECK(shows(end, "1.88" + ts + "GB"));
    CHECK(shows(end, "3.82×"));  // "4x" in the paper's words
    CHECK(shows(end, "7.21×"));  // "8x"
    CHECK(shows(end, "64×"));    // N x
}
