// The plan chapter: its counts are engine::plan's totals, its rows the planner's sample, the
// ranked rows its best layouts in order, and the node drawn the winner's placement.
#include "engine/plan.hpp"

#include <algorithm>
#include <regex>

#include "chapter_fixture.hpp"
#include "engine/layout3d.hpp"
#include "story/text/format.hpp"
#include "story/time/timeline.hpp"
#include "tests/catch.hpp"
#include "tests/story/on_screen.hpp"

using namespace story;
using on_screen::beside;
using on_screen::Lines;

namespace {

// The chapter's plan of a state: 3 ranked, 3 of each other fate, the state's global batch.
engine::PlanResult plan_of(const engine::Config& c) {
    const int batch = c.layout.dp() * c.training.micro_batch * c.training.micro_batches;
    return engine::plan(c, {3, batch, 3});
}

std::string leading(const engine::Config& c) {
    const engine::Parallel& p = c.layout;
    return "dp " + std::to_string(p.dp()) + " × tp " + std::to_string(p.tp) + " × pp " +
           std::to_string(p.pp) + " × cp " + std::to_string(p.cp) + " × ep " + std::to_string(p.ep);
}

void check_counts(const Scene& s, const engine::PlanResult& r) {
    CHECK(beside(s, "Layouts considered") == format_int(r.considered));
    CHECK(beside(s, "✗ batch does not divide") == format_int(r.batch_splits_dropped));
    CHECK(beside(s, "✗ does not fit in memory") == format_int(r.considered - r.feasible));
    CHECK(beside(s, "✗ slower than the top 3") ==
          format_int(r.feasible - static_cast<long long>(r.best.size())));
    CHECK(beside(s, "✓ ranked") == format_int(static_cast<long long>(r.best.size())));
}

// The ranked rows, "1." to "3.", are the planner's best in order, each with its memory and time.
void check_ranked(const Scene& s, const engine::PlanResult& r) {
    for (std::size_t k = 0; k < r.best.size(); ++k) {
        const engine::PlanEntry& e = r.best[k];
        const std::string rank = std::to_string(k + 1) + ".";
        const on_screen::Lines row = on_screen::row_beside(s, rank);
        INFO("rank " << rank << Catch::Detail::stringify(row));
        CHECK(beside(s, rank).rfind(leading(e.config), 0) == 0);
        REQUIRE(row.size() >= 3);  // the name, then the figures (then the counts at the right)
        CHECK(row[1] == format_bytes(e.report.per_gpu.expected.total.value));
        CHECK(row[2] == format_time(e.report.step.seconds));
    }
}

}  // namespace

TEST_CASE("plan shows the planner's totals, sample and ranking", "[chapters][plan]") {
    const ChapterSpec spec = chapter_test::load_spec("kind_plan.yaml");
    const auto chapter = make_chapter(spec, Video{}, chapter_test::kMetrics);
    const Timeline timeline(spec, Video{}.fps);
    const engine::PlanResult r = plan_of(timeline.states()[0]);
    REQUIRE(r.batch_splits_dropped > 0);  // 384 sequences do not divide over dp 64 x 4

    // Before any falls, every sampled candidate stands as a row with its memory and time beside
    // it; one whose batch does not divide names its micro-batch instead and has neither.
    const Scene rows = chapter->scene_at(3);
    for (const engine::PlanSample& sample : r.sample) {
        const engine::Config& c = sample.entry.config;
        if (sample.fate == engine::PlanFate::no_divide) {
            CHECK(on_screen::row_beside(rows, leading(c) + ", micro-batch " +
                                                  std::to_string(c.training.micro_batch)) ==
                  Lines{"—", "—"});
            continue;
        }
        const bool interleaved = c.training.schedule == engine::Schedule::interleaved;
        CHECK(on_screen::row_beside(
                  rows, leading(c) + ", ZeRO-" + std::to_string(c.layout.zero) + ", " +
                            std::string(to_string(c.training.schedule)) +
                            (interleaved ? " ×" + std::to_string(c.training.chunks) : "")) ==
              Lines{format_bytes(sample.entry.report.per_gpu.expected.total.value),
                    format_time(sample.entry.report.step.seconds)});
    }

    const Scene ranked = chapter->scene_at(20);
    check_counts(ranked, r);
    check_ranked(ranked, r);
    const engine::Config& w = r.best.front().config;
    const engine::Layout3D l = engine::layout_3d(w);
    // The winner's first node: its cards' stage and CP tags counted against the engine's ranks.
    for (int v = 0; v < std::max(l.pp, l.cp); ++v) {
        long stages = 0, cps = 0;
        for (int r = 0; r < l.gpus_per_node; ++r) {
            stages += l.ranks[r].pp == v;
            cps += l.ranks[r].cp == v;
        }
        CHECK(on_screen::count(ranked, "stage " + std::to_string(v)) == stages);
        if (l.cp > 1) CHECK(on_screen::count(ranked, "CP " + std::to_string(v)) == cps);
    }
    // The legend's CP entry, with the link its groups use, stands over the node it describes.
    CHECK(on_screen::under(ranked,
                           "cp " + std::to_string(l.cp) + " · " +
                               (l.within_node(engine::RankGroup::cp) ? "NVLink" : "network")) ==
          "Node 0 of " + std::to_string(l.gpus / l.gpus_per_node) + ": the winner's first node");

    // Past the set's halfway point the search plays again, for Mixtral: its counts start over and
    // nothing is ranked yet.
    const Scene again = chapter->scene_at(23.5);
    CHECK(on_screen::count(again, "✓ ranked") == 0);
    CHECK(on_screen::count(again, "✗ does not fit in memory") == 0);
    const std::string considered = beside(again, "Layouts considered");
    CHECK(std::regex_match(considered, std::regex("[0-9,]+")));

    // After the set: the Mixtral search's totals and ranking.
    const Scene end = chapter->scene_at(27.9);
    const engine::PlanResult mixtral = plan_of(timeline.states()[1]);
    check_counts(end, mixtral);
    check_ranked(end, mixtral);
}
