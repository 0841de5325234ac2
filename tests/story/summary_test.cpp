// The summary chapter: each row is analyze() on engine::strategy_configs of the chapter's
// config, before and after the model grows.
#include <catch2/catch.hpp>

#include "chapter_fixture.hpp"
#include "engine/report.hpp"
#include "engine/strategies.hpp"
#include "story/format.hpp"
#include "story/timeline.hpp"

using namespace story;
using chapter_test::shows;

namespace {

const std::string ts = kThinSpace;

void check_rows(const Scene& s, const engine::Config& c) {
    for (const engine::StrategyConfig& row : engine::strategy_configs(c)) {
        const engine::Report r = engine::analyze(row.config);
        INFO(engine::to_string(row.kind));
        CHECK(shows(s, std::string(engine::to_string(row.kind))));
        CHECK(shows(s, format_bytes(r.per_gpu.total.value)));
        CHECK(shows(s, format_bytes(r.comm.dp_per_gpu.value + r.comm.tp_per_gpu.value +
                                    r.comm.pp_per_gpu.value)));
        CHECK(shows(s, format_time(r.comm.total().value)));
        CHECK(shows(s, format_percent(r.bubble_fraction)));
        if (!r.per_gpu.fits)
            CHECK(shows(s, "✗ " + format_bytes(r.per_gpu.total.value - r.per_gpu.capacity.value) +
                               " over"));
    }
}

}  // namespace

TEST_CASE("summary rows are the engine's figures for each strategy", "[chapters][summary]") {
    const ChapterSpec spec = chapter_test::load_spec("kind_summary.yaml");
    const auto chapter = make_chapter(spec, Video{}, chapter_test::kMetrics);
    const Timeline timeline(spec);
    REQUIRE(timeline.states()[0].layout.gpus == 32);

    const Scene s = chapter->scene_at(13);
    check_rows(s, timeline.states()[0]);
    CHECK(shows(s, "tp 8 × dp 4"));
    CHECK(shows(s, "pp 32"));
    // By hand: ring all-reduce of 7B bf16 gradients over 32 ranks, 2(n-1)/n x 14 GB = 27.1 GB;
    // a 32-stage pipeline with 8 micro-batches idles (p-1)/(m+p-1) = 31/39 = 79.5%.
    CHECK(shows(s, "27.1" + ts + "GB"));
    CHECK(shows(s, "79.5%"));

    const Scene end = chapter->scene_at(19.9);
    check_rows(end, timeline.states()[1]);
    // 70B under plain DP holds 16 B x 70e9 = 1,120 GB of state on every card, plus activations.
    CHECK(shows(end, "✗ " +
                         format_bytes(engine::analyze(
                                          engine::strategy_configs(timeline.states()[1])[0].config)
                                          .per_gpu.total.value -
                                      80e9) +
                         " over"));
    CHECK(shows(end, "✓ fits"));  // the 3D row
}
