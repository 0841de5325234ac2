// fsdp_gather: the film follows engine::fsdp_plan (slices forward, then backward), the gauge
// shows the plan's resident bytes, and the traffic reads 1.5x data parallel.
#include "engine/fsdp.hpp"
#include "engine/report.hpp"
#include "story/text/format.hpp"
#include "tests/catch.hpp"
#include "tests/story/chapter_fixture.hpp"
#include "tests/story/on_screen.hpp"

using namespace story;
using chapter_test::kMetrics;
using chapter_test::load_spec;
using on_screen::Lines;
using on_screen::stat;

namespace {
const std::string ts = kThinSpace;

// The figure under each card's name, GPU 0 first.
Lines gauges(const Scene& s, int cards) {
    Lines out;
    for (int k = 0; k < cards; ++k) out.push_back(on_screen::under(s, "GPU " + std::to_string(k)));
    return out;
}

// The phase's headline, beside the model's name over the loaf, and the lines under it.
Lines headline(const Scene& s) {
    const std::string head = on_screen::beside(s, "7B model · 32 layers");
    const Lines under = on_screen::column_under(s, head, 1.5);
    Lines out{head};
    out.insert(out.end(), under.begin(), under.end());
    return out;
}
}  // namespace

TEST_CASE("fsdp_gather shows the plan's memory and 1.5x data parallel traffic",
          "[chapters][fsdp]") {
    const ChapterSpec spec = load_spec("kind_fsdp_gather.yaml", "fsdp");
    const auto chapter = make_chapter(spec, Video{}, kMetrics);
    engine::Config c = spec.config;
    c.layout.zero = 3;
    const engine::FsdpPlan plan = engine::fsdp_plan(c);
    REQUIRE(plan.shards == 8);
    REQUIRE(plan.layers == 32);

    // The 7B that needs 112 GB holds 14 GB of shards per card.
    const Scene intro = chapter->scene_at(1.8);
    CHECK(headline(intro) == Lines{"Model states: 112" + ts + "GB, one card holds 80" + ts + "GB"});
    const Scene before = chapter->scene_at(4.5);
    CHECK(format_bytes(plan.sharded_states.value) == "14" + ts + "GB");
    CHECK(gauges(before, 8) == Lines(8, format_bytes(plan.sharded_states.value)));

    // Under it the gauge's peak: shards + one full layer + its gradients, from the plan.
    const std::string peak = format_bytes(plan.peak_bytes.value);
    CHECK(headline(before) ==
          Lines{"Each card keeps 1/8 of every layer",
                "Live model states per card: 14" + ts + "GB, peak " + peak + " = 14" + ts +
                    "GB of shards + one layer and its gradients"});

    // Mid-forward-compute, every card holds the shards plus the gathered layer.
    const Scene compute = chapter->scene_at(5.5 + 0.45 + 0.15);
    CHECK(gauges(compute, 8) ==
          Lines(8, format_bytes(plan.sharded_states.value + plan.layer_full_bytes.value)));

    // Traffic: 3 x 7/8 x 14 GB = 36.75 GB against the ring's 2 x 7/8 x 14 GB = 24.5 GB.
    const engine::Report fsdp = engine::analyze(c);
    c.layout.zero = 0;
    const engine::Report dp = engine::analyze(c);
    CHECK(format_bytes(fsdp.comm.dp_per_gpu.value) == "36.8" + ts + "GB");
    const Scene end = chapter->scene_at(29);
    CHECK(headline(end) ==
          Lines{"One training step done: every card updates its own shard",
                "Per card per step: 3 × 7/8 × 14" + ts +
                    "GB = " + format_bytes(fsdp.comm.dp_per_gpu.value),
                "data parallel's all-reduce moves " + format_bytes(dp.comm.dp_per_gpu.value) +
                    ": FSDP 1.5× as much"});
    CHECK(stat(end, "Per card") ==
          Lines{format_bytes(fsdp.per_gpu.total.value), "with activations"});
    CHECK(stat(end, "Comm / step") ==
          Lines{format_bytes(fsdp.comm.dp_per_gpu.value), comm_detail(fsdp.comm, Locale("en"))});
}

TEST_CASE("fsdp_gather plays the slices forward, then backward in reverse", "[chapters][fsdp]") {
    const ChapterSpec spec = load_spec("kind_fsdp_gather.yaml", "fsdp");
    const auto chapter = make_chapter(spec, Video{}, kMetrics);
    // Forward slices take 0.45 + 0.3 + 0.2 s from 5.5 s; backward ones 0.4 + 0.55 + 0.4 + 0.15 s.
    for (int g = 0; g < 8; ++g) {
        const double t = 5.5 + 0.95 * g + 0.2;
        CHECK(headline(chapter->scene_at(t)).front() ==
              "Forward · slice " + std::to_string(g + 1) + " of 8: all-gather the full weights");
    }
    for (int k = 0; k < 8; ++k) {
        const double t = 5.5 + 0.95 * 8 + 1.5 * k + 0.4 + 0.55 + 0.2;
        CHECK(headline(chapter->scene_at(t)).front() ==
              "Backward · slice " + std::to_string(8 - k) + " of 8: reduce-scatter the gradients");
    }
}

// German runs longer than English: the loaf's label and notes wrap to its width, and every line
// of each is drawn (the shard note once came out without its wrapped lines).
TEST_CASE("fsdp_gather in German draws every wrapped line of the loaf's label and notes",
          "[chapters][fsdp]") {
    const ChapterSpec spec = load_spec("kind_fsdp_gather.yaml", "fsdp");
    Video german;
    german.lang = "de";
    const Scene s = make_chapter(spec, german, kMetrics)->scene_at(spec.duration - 0.1);
    std::string all;
    for (const PlacedText& p : texts_of(s)) all += p.text.text + " ";
    CHECK_THAT(all, Catch::Contains("Parametern · 32 Schichten eine Scheibe = 4 Schichten"));
    CHECK_THAT(all, Catch::Contains("in 8 Shards geteilt, einer pro Karte"));
}
