// The plan chapter: its counts are engine::plan's totals, its rows the planner's sample, the
// ranked rows its best layouts in order, and the node drawn the winner's placement.
#include "engine/plan.hpp"

#include <algorithm>
#include <regex>
#include <set>

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

// What sets a layout apart within its split, ZeRO stage and schedule, as the row names it.
std::string extras(const engine::Config& c) {
    using engine::Offload;
    using engine::Recompute;
    const Recompute rc = c.training.recompute;
    const Offload o = c.layout.offload;
    return std::string(rc == Recompute::selective ? ", recompute" : "") +
           (rc == Recompute::full ? ", full recompute" : "") +
           (o == Offload::optimizer ? ", offload" : "") +
           (o == Offload::optimizer_params ? ", offload + weights" : "") +
           (c.layout.shard_group > 0 ? ", hybrid sharding" : "");
}

// A layout's row: its split, ZeRO stage, schedule and what else sets it apart; compact (where the
// whole name would not fit), the split's degrees of 1 after dp left out.
std::string split_of(const engine::Config& c, bool compact = false) {
    const engine::Parallel& p = c.layout;
    std::string split = "dp " + std::to_string(p.dp());
    for (auto [name, n] : {std::pair{"tp", p.tp}, {"pp", p.pp}, {"cp", p.cp}})
        if (!compact || n > 1) split += std::string(" × ") + name + " " + std::to_string(n);
    if (c.model.experts > 0 && (!compact || p.ep > 1)) split += " × ep " + std::to_string(p.ep);
    return split;
}

std::string label(const engine::Config& c, bool compact = false, bool with_extras = true) {
    const engine::Parallel& p = c.layout;
    const bool interleaved = c.training.schedule == engine::Schedule::interleaved;
    return split_of(c, compact) + ", ZeRO-" + std::to_string(p.zero) + ", " +
           std::string(to_string(c.training.schedule)) +
           (interleaved ? " ×" + std::to_string(c.training.chunks) : "") +
           (with_extras ? extras(c) : "");
}

// The row's name as drawn: whole, or compact where the whole would not fit, or compact without
// its extras.
std::string drawn_label(const Scene& s, const engine::Config& c) {
    if (on_screen::count(s, label(c)) > 0) return label(c);
    return on_screen::count(s, label(c, true)) > 0 ? label(c, true) : label(c, true, false);
}

// The candidates are the four fates' counts summed: the layouts considered and the splits skipped.
void check_counts(const Scene& s, const engine::PlanResult& r) {
    CHECK(beside(s, "Candidates") == format_int(r.considered + r.batch_splits_dropped));
    CHECK(beside(s, "✗ batch does not divide") == format_int(r.batch_splits_dropped));
    CHECK(beside(s, "✗ does not fit in memory") == format_int(r.considered - r.feasible));
    CHECK(beside(s, "✗ slower than the top 3") ==
          format_int(r.feasible - static_cast<long long>(r.best.size())));
    CHECK(beside(s, "✓ ranked") == format_int(static_cast<long long>(r.best.size())));
}

// A row's name ends at least 20 px left of its memory figure, at no less than 22 px (STYLE.md).
void check_fits(const Scene& s, const engine::Config& c, const std::string& memory) {
    const std::string name = drawn_label(s, c);
    const std::vector<on_screen::Shown> all = on_screen::shown(s);
    const auto at = std::ranges::find_if(all, [&](const auto& t) { return t.text == name; });
    REQUIRE(at != all.end());
    const auto figure = std::ranges::find_if(all, [&](const auto& t) {
        return t.text == memory && t.middle() > at->top && t.middle() < at->bottom;
    });
    REQUIRE(figure != all.end());
    INFO(name);
    CHECK(at->right + 20 <= figure->left);
    CHECK(at->size >= 22);
}

// The ranked rows, "1." to "3.", are the planner's best in order, each with its memory and time.
void check_ranked(const Scene& s, const engine::PlanResult& r) {
    for (std::size_t k = 0; k < r.best.size(); ++k) {
        const engine::PlanEntry& e = r.best[k];
        const std::string rank = std::to_string(k + 1) + ".";
        const on_screen::Lines row = on_screen::row_beside(s, rank);
        INFO("rank " << rank << Catch::Detail::stringify(row));
        CHECK(beside(s, rank) == drawn_label(s, e.config));
        REQUIRE(row.size() >= 3);  // the name, then the figures (then the counts at the right)
        CHECK(row[1] == format_bytes(e.report.per_gpu.expected.total.value));
        CHECK(row[2] == format_time(e.report.step.seconds));
        check_fits(s, e.config, row[1]);
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
    // The names read as one table, at one size.
    const Scene rows = chapter->scene_at(3);
    std::set<double> sizes;
    const auto size_of = [&](const std::string& name) {
        for (const on_screen::Shown& t : on_screen::shown(rows))
            if (t.text == name) sizes.insert(t.size);
    };
    for (const engine::PlanSample& sample : r.sample) {
        const engine::Config& c = sample.entry.config;
        if (sample.fate == engine::PlanFate::no_divide) {
            const std::string name =
                split_of(c) + ", micro-batch " + std::to_string(c.training.micro_batch);
            CHECK(on_screen::row_beside(rows, name) == Lines{"—", "—"});
            size_of(name);
            continue;
        }
        CHECK(on_screen::row_beside(rows, drawn_label(rows, c)) ==
              Lines{format_bytes(sample.entry.report.per_gpu.expected.total.value),
                    format_time(sample.entry.report.step.seconds)});
        size_of(drawn_label(rows, c));
    }
    CHECK(sizes.size() == 1);

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
    const std::string considered = beside(again, "Candidates");
    CHECK(std::regex_match(considered, std::regex("[0-9,]+")));

    // After the set: the Mixtral search's totals and ranking.
    const Scene end = chapter->scene_at(27.9);
    const engine::PlanResult mixtral = plan_of(timeline.states()[1]);
    check_counts(end, mixtral);
    check_ranked(end, mixtral);
}
