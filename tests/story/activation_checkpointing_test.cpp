// activation_checkpointing shows Korthikanti's per-layer bytes and the compute recompute costs.
#include "chapter_fixture.hpp"
#include "engine/recompute.hpp"
#include "engine/report.hpp"
#include "story/text/format.hpp"
#include "tests/catch.hpp"
#include "tests/story/on_screen.hpp"

using namespace story;
using on_screen::beside;
using on_screen::column_under;
using on_screen::Lines;
using on_screen::stat;

namespace {
ChapterSpec load() {
    return chapter_test::load_spec("kind_activation_checkpointing.yaml", "checkpointing");
}
const std::string ts = kThinSpace;

// The compute panel read down from its heading: the first bar's label, then the passes of work
// and what recompute costs (the bars stand a little over a line below the heading).
Lines compute_panel(const Scene& s) { return column_under(s, "Compute per step", 1.3); }
}  // namespace

TEST_CASE("activation_checkpointing: no recompute keeps 34 + 5as/h bytes per element",
          "[chapters][activation_checkpointing]") {
    const ChapterSpec kSpec = load();
    const auto chapter = make_chapter(kSpec, Video{}, chapter_test::kMetrics);
    const engine::Config c = Timeline(kSpec, Video{}.fps).states()[0];
    const engine::Report r = engine::analyze(c);
    const Scene s = chapter->scene_at(8);
    CHECK(beside(s, "Activations kept per layer") == "Recompute: none");
    // 4096 x 1 x 4096 x (34 + 5 x 32 x 4096 / 4096) = 3.25 GB per layer.
    CHECK(r.activations.per_layer.value == Approx(4096.0 * 4096 * 194));
    CHECK(column_under(s, "Activations kept per layer") ==
          Lines{"s·b·h·(34 + 5as/h) bytes", "4,096 × 1 × 4,096 × (34 + 160) bytes = " +
                                                format_bytes(r.activations.per_layer.value)});
    CHECK(on_screen::under(s, "kept for the backward pass") ==
          "× 32 layers × 1 micro-batch in flight = " + format_bytes(r.per_gpu.activations.value) +
              " on this GPU");
    CHECK(beside(s, "Activations") == format_bytes(r.per_gpu.activations.value));  // the legend
    CHECK(stat(s, "Per card") == chapter_test::per_card(r));
    CHECK(compute_panel(s) ==
          Lines{"forward", "1 + 2 = 3 forward passes of work", "no extra compute"});
}

TEST_CASE("activation_checkpointing: selective, then full recompute at +1/3 compute",
          "[chapters][activation_checkpointing]") {
    const ChapterSpec kSpec = load();
    const auto chapter = make_chapter(kSpec, Video{}, chapter_test::kMetrics);
    const Timeline timeline(kSpec, Video{}.fps);
    const engine::Config sel = timeline.states()[1];
    const engine::Report rs = engine::analyze(sel);
    const Scene at13 = chapter->scene_at(13);
    CHECK(beside(at13, "Activations kept per layer") == "Recompute: selective");
    CHECK(column_under(at13, "Activations kept per layer") ==
          Lines{"34·s·b·h bytes",
                "4,096 × 1 × 4,096 × 34 bytes = " + format_bytes(rs.activations.per_layer.value)});
    CHECK(beside(at13, "Activations") == format_bytes(rs.per_gpu.activations.value));
    const engine::ComputeUnits su = engine::recompute_compute_units(sel);
    const Lines compute = compute_panel(at13);
    REQUIRE(compute.size() == 3);
    CHECK(compute.back() == "+" + format_percent(su.ratio() - 1) + " compute to save the memory");

    const engine::Config full = timeline.states()[2];
    const engine::Report r = engine::analyze(full);
    const Scene end = chapter->scene_at(21.9);
    CHECK(beside(end, "Activations kept per layer") == "Recompute: full");
    CHECK(r.activations.per_layer.value == 2.0 * 4096 * 4096);
    CHECK(column_under(end, "Activations kept per layer") ==
          Lines{"2·s·b·h bytes", "4,096 × 1 × 4,096 × 2 bytes = 33.6" + ts + "MB"});
    CHECK(beside(end, "Activations") == format_bytes(r.per_gpu.activations.value));
    CHECK(stat(end, "Per card") == chapter_test::per_card(r));
    // The layers' forward again, not the output layer's: 0.983 of the model's forward.
    const engine::ComputeUnits fu = engine::recompute_compute_units(full);
    CHECK(fu.ratio() == Approx(1.328).epsilon(1e-3));
    CHECK(compute_panel(end) == Lines{"forward", "1 + 2 + 0.983 = 3.98 forward passes of work",
                                      "+32.8% compute to save the memory"});
}

TEST_CASE("the recompute setting is named whole in the film's language, its value too") {
    const ChapterSpec spec = load();
    Video german;
    german.lang = "de";
    const auto chapter = make_chapter(spec, german, chapter_test::kMetrics);
    // Beside the heading, right-aligned: the state's setting, then selective's after the morph.
    CHECK(beside(chapter->scene_at(8), "Aktivierungen je Schicht") == "Neuberechnung: keine");
    CHECK(beside(chapter->scene_at(13), "Aktivierungen je Schicht") == "Neuberechnung: selektiv");
    CHECK(beside(chapter->scene_at(21.9), "Aktivierungen je Schicht") == "Neuberechnung: voll");
}
