// The summary chapter: each row is analyze() on engine::strategy_configs of the chapter's
// config, before and after the model grows.
#include <algorithm>
#include <map>

#include "chapter_fixture.hpp"
#include "engine/report.hpp"
#include "engine/strategies.hpp"
#include "story/scene/theme.hpp"
#include "story/text/format.hpp"
#include "story/time/timeline.hpp"
#include "tests/catch.hpp"
#include "tests/story/on_screen.hpp"

using namespace story;
using on_screen::cell;
using on_screen::Lines;

namespace {

const std::string ts = kThinSpace;

// Whether `part` appears in `row` in the same order (other texts may stand between).
bool in_order(const Lines& part, const Lines& row) {
    auto at = row.begin();
    for (const std::string& text : part) {
        at = std::find(at, row.end(), text);
        if (at == row.end()) return false;
        ++at;
    }
    return true;
}

// The engine's verdict, by the expected peak; by how much the on-paper total overflows where it
// does, else the peak that does.
std::string fits_text(const engine::Report& r) {
    const engine::PerGpu& p = r.per_gpu;
    if (p.fits) return "✓ fits";
    if (p.total > p.capacity)
        return "✗ " + format_bytes(p.total.value - p.capacity.value) + " over";
    return "✗ " + format_bytes(p.expected.total.value) + " at peak";
}

// Each strategy's row: its figures under their headings, and left to right along its line (the
// bytes sent stand unheaded beside their time, under "Comm / step").
void check_rows(const Scene& s, const engine::Config& c) {
    for (const engine::StrategyConfig& row : engine::strategy_configs(c)) {
        const engine::Report r = engine::analyze(row.config);
        const std::string name(engine::to_string(row.kind));
        INFO(name);
        const std::string card = format_bytes(r.per_gpu.total.value);
        const std::string sent = format_bytes(r.comm.sent_per_gpu().value);
        const std::string time = format_time(r.comm.total().value);
        const std::string bubble = format_percent(r.bubble_fraction);
        CHECK(cell(s, name, "Per card") == card);
        CHECK(cell(s, name, "Comm / step") == time);
        CHECK(cell(s, name, "Bubble") == bubble);
        CHECK(cell(s, name, "Fits?") == fits_text(r));
        const Lines line = on_screen::row_beside(s, name);
        INFO("row: " << Catch::Detail::stringify(line));
        CHECK(in_order({card, sent, time, bubble, fits_text(r)}, line));
    }
}

// Each strategy's report for the chapter's first state, as its rows show them.
std::map<engine::Strategy, engine::Report> first_rows(const ChapterSpec& spec) {
    std::map<engine::Strategy, engine::Report> row;
    for (const engine::StrategyConfig& s :
         engine::strategy_configs(Timeline(spec, Video{}.fps).states()[0]))
        row.emplace(s.kind, engine::analyze(s.config));
    return row;
}

// The line said while the highlight shows `phase`.
std::string said_at(const ChapterSpec& spec, const char* phase) {
    const auto b = std::ranges::find_if(spec.beats, [&](const Beat& x) { return x.show == phase; });
    REQUIRE(b != spec.beats.end());
    return b->say;
}

}  // namespace

TEST_CASE("summary rows are the engine's figures for each strategy", "[chapters][summary]") {
    const ChapterSpec spec = chapter_test::load_spec("kind_summary.yaml");
    const auto chapter = make_chapter(spec, Video{}, chapter_test::kMetrics);
    const Timeline timeline(spec, Video{}.fps);
    REQUIRE(timeline.states()[0].layout.gpus == 32);

    const Scene s = chapter->scene_at(13);
    check_rows(s, timeline.states()[0]);
    CHECK(on_screen::under(s, "TP") == "tp 8 × dp 4");
    CHECK(on_screen::under(s, "PP") == "pp 32");
    // By hand: ring all-reduce of 7B bf16 gradients over 32 ranks, 2(n-1)/n x 14 GB = 27.1 GB;
    // a 32-stage pipeline with 8 micro-batches idles (p-1)/(m+p-1) = 31/39 = 79.5%.
    CHECK(in_order({"27.1" + ts + "GB"}, on_screen::row_beside(s, "DP")));
    CHECK(cell(s, "PP", "Bubble") == "79.5%");

    const Scene end = chapter->scene_at(19.9);
    check_rows(end, timeline.states()[1]);
    // 70B under plain DP holds 16 B x 70e9 = 1,120 GB of state on every card, plus activations.
    const engine::Report dp =
        engine::analyze(engine::strategy_configs(timeline.states()[1])[0].config);
    CHECK(cell(end, "DP", "Fits?") == "✗ " + format_bytes(dp.per_gpu.total.value - 80e9) + " over");
    CHECK(cell(end, "3D", "Fits?") == "✓ fits");

    // Through the morph each row's layout line changes with its figures, at the halfway point:
    // never the new state's layout ("tp 8 × pp 4 × dp 1" for 70B) over the old one's figures.
    const double start = timeline.state_start(1), over = timeline.state_over(1);
    for (const auto& [t, k] : {std::pair{start + 0.1 * over, 0}, std::pair{start + 0.4 * over, 0},
                               std::pair{start + 0.6 * over, 1}, std::pair{start + over, 1}}) {
        INFO("t = " << t);
        const Scene mid = chapter->scene_at(t);
        check_rows(mid, timeline.states()[k]);
        const engine::Parallel& p =
            engine::strategy_configs(timeline.states()[k]).back().config.layout;
        CHECK(on_screen::under(mid, "3D") ==
              "tp " + std::to_string(p.tp) + " × pp " + std::to_string(p.pp) + " × dp " +
                  std::to_string(p.dp()) + (p.zero > 0 ? ", ZeRO-" + std::to_string(p.zero) : ""));
    }
}

TEST_CASE("summary's last row keeps the chapter's cp and ep and names five axes",
          "[chapters][summary]") {
    const ChapterSpec spec = chapter_test::load_spec("summary_5d.yaml");
    const auto chapter = make_chapter(spec, Video{}, chapter_test::kMetrics);
    const Timeline timeline(spec, Video{}.fps);
    const engine::Config& c = timeline.states()[0];
    const engine::Parallel d3 = engine::strategy_configs(c)[6].config.layout;
    REQUIRE(d3.cp == 2);
    REQUIRE(d3.ep == 2);

    const Scene s = chapter->scene_at(13);
    CHECK(on_screen::count(s, "3D") == 0);
    CHECK(on_screen::under(s, "5D, ZeRO-1") == "tp " + std::to_string(d3.tp) + " × cp 2 × pp " +
                                                   std::to_string(d3.pp) + " × dp " +
                                                   std::to_string(d3.dp()) + ", ep 2");
    const engine::Report r = engine::analyze(engine::strategy_configs(c)[6].config);
    CHECK(cell(s, "5D, ZeRO-1", "Per card") == format_bytes(r.per_gpu.total.value));
    CHECK(on_screen::under(s, "TP") == "tp 8 × dp 8");  // the other rows: cp 1, ep 1
}

// The last visit's line can outlast the kind's own pace (a stretched chapter, a long line): the
// highlight stays on its row until the next line begins, then leaves.
TEST_CASE("summary's highlight stays on the last row until the next line begins",
          "[chapters][summary]") {
    const ChapterSpec spec =
        chapter_test::chapter_of(chapter_test::shipped("beyond-3d.yaml"), "summary");
    const auto chapter = make_chapter(spec, Video{}, chapter_test::kMetrics);
    const auto combined =
        std::ranges::find_if(spec.beats, [](const Beat& b) { return b.show == "combined"; });
    REQUIRE(combined != spec.beats.end());
    REQUIRE(combined + 1 != spec.beats.end());
    const double next = (combined + 1)->at;
    const Color highlight = palette(ThemeName::dark).highlight;
    const Scene held = chapter->scene_at(next - 0.05);
    CHECK(chapter_test::stroked(held, highlight) == 1);
    CHECK(on_screen::count(held, "5D, ZeRO-1") == 1);
    CHECK(chapter_test::stroked(chapter->scene_at(next + 1), highlight) == 0);
}

// The Llama 2 70B film's summary says, row by row, what fits on its 64 H100s: each line's claim is
// the engine's for the row it highlights.
TEST_CASE("the 70B film's summary lines agree with the rows they highlight",
          "[chapters][summary]") {
    const ChapterSpec spec =
        chapter_test::chapter_of(chapter_test::shipped("llama-70b-on-64-h100.yaml"), "summary");
    const auto row = first_rows(spec);
    const auto said = [&](const char* phase) { return said_at(spec, phase); };
    CHECK(said("dp").starts_with("Plain data parallelism"));
    CHECK_FALSE(row.at(engine::Strategy::dp).per_gpu.fits);
    CHECK(said("sharded").find("even fully sharded") != std::string::npos);
    CHECK_FALSE(row.at(engine::Strategy::fsdp).per_gpu.fits);
    CHECK(said("split") ==
          "A lone tensor split overflows. A 64-stage pipeline fits on paper, but "
          "overflows at its peak and idles most of the time.");
    CHECK_FALSE(row.at(engine::Strategy::tp).per_gpu.fits);
    const engine::PerGpu& pp = row.at(engine::Strategy::pp).per_gpu;
    CHECK(pp.total <= pp.capacity);  // on paper
    CHECK_FALSE(pp.fits);            // at its expected peak
    CHECK(row.at(engine::Strategy::pp).bubble_fraction > 0.5);
    // The row says so where the film shows it.
    const auto chapter = make_chapter(spec, Video{}, chapter_test::kMetrics);
    CHECK(cell(chapter->scene_at(16), "PP", "Fits?") == fits_text(row.at(engine::Strategy::pp)));
    CHECK(said("combined") == "3D fits with a small bubble.");
    CHECK(row.at(engine::Strategy::three_d).per_gpu.fits);
    CHECK(row.at(engine::Strategy::three_d).bubble_fraction < 0.1);
}

TEST_CASE("the light tour's summary lines agree with the rows they highlight",
          "[chapters][summary]") {
    const ChapterSpec spec =
        chapter_test::chapter_of(chapter_test::shipped("light-tour.yaml"), "summary");
    const auto row = first_rows(spec);
    const auto said = [&](const char* phase) { return said_at(spec, phase); };
    using S = engine::Strategy;
    CHECK(said("dp") == "Plain data parallelism overflows every card.");
    CHECK(row.at(S::dp).per_gpu.total > row.at(S::dp).per_gpu.capacity);
    CHECK(said("sharded").ends_with("frees more at each stage."));
    for (const auto& [more, less] : {std::pair{S::zero1, S::zero2}, std::pair{S::zero2, S::fsdp}}) {
        CHECK(row.at(less).per_gpu.total < row.at(more).per_gpu.total);
        CHECK(row.at(less).per_gpu.expected.total < row.at(more).per_gpu.expected.total);
    }
    CHECK(said("split") == "Tensor and pipeline splits fit too, but the pipeline mostly idles.");
    CHECK(row.at(S::tp).per_gpu.fits);
    CHECK(row.at(S::pp).per_gpu.fits);
    CHECK(row.at(S::pp).bubble_fraction > 0.5);
    CHECK(said("combined") == "Combining them leaves each card the most room.");
    for (const auto& [kind, r] : row) {
        INFO(engine::to_string(kind));
        if (kind == S::three_d) continue;
        CHECK(row.at(S::three_d).per_gpu.total < r.per_gpu.total);
        CHECK(row.at(S::three_d).per_gpu.expected.total < r.per_gpu.expected.total);
    }
}
