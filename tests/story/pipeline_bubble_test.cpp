// pipeline_bubble draws the engine's schedule slot for slot and reads out its bubble.
#include <algorithm>
#include <cmath>

#include "chapter_fixture.hpp"
#include "engine/pipeline.hpp"
#include "engine/report.hpp"
#include "story/draw/color.hpp"
#include "story/text/format.hpp"
#include "tests/catch.hpp"
#include "tests/story/on_screen.hpp"

using namespace story;
using on_screen::column_under;
using on_screen::Lines;
using on_screen::stat;

namespace {

ChapterSpec load() { return chapter_test::load_spec("kind_pipeline_bubble.yaml", "bubble"); }
constexpr double kX0 = 250, kX1 = 1490, kTop = 340, kBottom = 740;  // the timeline box

engine::PipelineSchedule schedule_of(const engine::Config& c) {
    const int v = c.training.schedule == engine::Schedule::interleaved ? c.training.chunks : 1;
    return engine::pipeline_schedule(c.training.schedule, c.layout.pp, c.training.micro_batches, v);
}

// Every slot of the engine's schedule is one filled rect at its start time, and nothing else is.
void check_slots(const Scene& s, const engine::PipelineSchedule& sched) {
    const PassColors colors = pass_colors(palette(ThemeName::dark));
    auto forward = chapter_test::rects(s, colors.forward, kX0, kTop, kX1, kBottom);
    auto backward = chapter_test::rects(s, colors.backward, kX0, kTop, kX1, kBottom);
    auto weight = chapter_test::rects(s, colors.weight_grad, kX0, kTop, kX1, kBottom);
    REQUIRE(forward.size() + backward.size() + weight.size() == sched.slots.size());
    const double unit = (kX1 - kX0) / sched.makespan();
    for (const engine::PipelineSlot& slot : sched.slots) {
        auto& pool = slot.pass == engine::Pass::backward_weight ? weight
                     : slot.backward()                          ? backward
                                                                : forward;
        const double x = kX0 + slot.start * unit;
        const auto hit = std::find_if(pool.begin(), pool.end(), [&](const Rect& r) {
            return std::abs(r.x - x) < 2 && std::abs(r.w - (slot.duration * unit - 3)) < 0.01;
        });
        INFO("stage " << slot.stage << " micro-batch " << slot.micro_batch << " start "
                      << slot.start);
        REQUIRE(hit != pool.end());
        pool.erase(hit);
    }
}

// The line under the bubble's formula: the idle share measured on the timeline drawn (with the
// backward split, the share of a GPU's own span).
std::string measured(const engine::PipelineSchedule& sched) {
    return "Measured on this timeline: " + format_percent(sched.idle_fraction()) +
           " of GPU time idle";
}
std::string measured_split(const engine::PipelineSchedule& sched) {
    return "Measured on this timeline: " + format_percent(sched.bubble_share()) +
           " of a GPU's own span idle";
}

// The micro-batches-held column, top to bottom: one figure per stage's lane, a lane apart.
Lines held(const Scene& s) { return on_screen::column_under(s, "Micro-batches held", 3); }

}  // namespace

TEST_CASE("pipeline_bubble: GPipe timeline, formula and activations held",
          "[chapters][pipeline_bubble]") {
    const ChapterSpec kSpec = load();
    const auto chapter = make_chapter(kSpec, Video{}, chapter_test::kMetrics);
    const Timeline timeline(kSpec, Video{}.fps);
    const engine::Config& gpipe = timeline.states()[0];
    REQUIRE(gpipe.training.schedule == engine::Schedule::gpipe);
    const engine::PipelineSchedule sched = schedule_of(gpipe);
    const Scene s = chapter->scene_at(10);

    // (p-1)/(m+p-1) with p = 4, m = 8: 3/11.
    CHECK(engine::bubble_fraction(4, 8) == Approx(3.0 / 11));
    CHECK(column_under(s, "Bubble = (p − 1) / (m + p − 1) = (4 − 1) / (8 + 4 − 1) = 27.3%") ==
          Lines{measured(sched)});
    CHECK(stat(s, "Bubble") == Lines{format_percent(engine::analyze(gpipe).bubble_fraction)});
    check_slots(s, sched);
    // GPipe runs every forward first: the first stage holds all m micro-batches.
    CHECK(sched.max_in_flight(0) == engine::in_flight_micro_batches(gpipe.training, 4));
    CHECK(held(s) == Lines{"8", "8", "8", "8"});
}

TEST_CASE("pipeline_bubble: 1F1B holds p - s micro-batches, more micro-batches shrink the bubble",
          "[chapters][pipeline_bubble]") {
    const ChapterSpec kSpec = load();
    const auto chapter = make_chapter(kSpec, Video{}, chapter_test::kMetrics);
    const Timeline timeline(kSpec, Video{}.fps);
    const Scene at15 = chapter->scene_at(15);
    check_slots(at15, schedule_of(timeline.states()[1]));
    CHECK(engine::in_flight_micro_batches(timeline.states()[1].training, 4) == 4);
    CHECK(held(at15) == Lines{"4", "3", "2", "1"});

    // Before the rule's phase (20 s) the formula and the measured bubble; from it, under them,
    // GPipe's rule M >= 4K with this M = 16 and K = 4 stages, and the engine's bubble there.
    const std::string formula = "Bubble = (p − 1) / (m + p − 1) = (4 − 1) / (16 + 4 − 1) = 15.8%";
    const std::string sixteen = measured(schedule_of(timeline.states()[2]));  // 3/19
    CHECK(column_under(chapter->scene_at(19.5), formula) == Lines{sixteen});
    const Scene at21 = chapter->scene_at(21);
    check_slots(at21, schedule_of(timeline.states()[2]));
    const std::string bubble =
        format_percent(engine::analyze(timeline.states()[2]).bubble_fraction);
    CHECK(column_under(at21, formula) ==
          Lines{sixteen,
                "GPipe's rule M ≥ 4K holds: M = 16 ≥ 4 × 4 stages, so the bubble is "
                "down to " +
                    bubble});
    CHECK(stat(at21, "Bubble") == Lines{"15.8%"});

    // While micro_batches morphs, the percentage is one state's, never a blend of the two.
    const Lines mid = stat(chapter->scene_at(17), "Bubble");
    CHECK((mid == Lines{"27.3%"} || mid == Lines{"15.8%"}));
}

TEST_CASE("pipeline_bubble: the interleaved schedule and its smaller bubble",
          "[chapters][pipeline_bubble]") {
    const ChapterSpec kSpec = load();
    const auto chapter = make_chapter(kSpec, Video{}, chapter_test::kMetrics);
    const Timeline timeline(kSpec, Video{}.fps);
    const engine::Config& inter = timeline.states()[3];
    const engine::PipelineSchedule sched = schedule_of(inter);
    REQUIRE(sched.slots.size() == 2u * 4 * 16 * 2);
    const Scene end = chapter->scene_at(29.9);
    check_slots(end, sched);
    const double bubble = engine::bubble_fraction(engine::Schedule::interleaved, 4, 16, 2);
    CHECK(bubble == Approx(3.0 / 35));
    CHECK(column_under(end, "Bubble = (p − 1) / (v·m + p − 1) = (4 − 1) / (2·16 + 4 − 1) = " +
                                format_percent(bubble)) == Lines{measured(sched)});
    CHECK(stat(end, "Bubble") == Lines{format_percent(bubble)});
}

// A split backward draws B in the backward's shade and W in its paler one, slot for slot, and
// the read-out gives ZB-H1's formula (Qi et al. 2023) with the engine's figure.
TEST_CASE("pipeline_bubble: ZB-H1 draws B and W apart", "[chapters][pipeline_bubble]") {
    ChapterSpec spec = load();
    spec.config.training.schedule = engine::Schedule::zb_h1;
    spec.beats.resize(1);
    const auto chapter = make_chapter(spec, Video{}, chapter_test::kMetrics);
    const Timeline timeline(spec, Video{}.fps);
    const engine::Config& zb = timeline.states()[0];
    REQUIRE(zb.training.schedule == engine::Schedule::zb_h1);
    const Scene s = chapter->scene_at(10);
    check_slots(s, schedule_of(zb));
    CHECK(column_under(s, "Bubble = (p − 1) / (3m + p − 1) = (4 − 1) / (3·8 + 4 − 1) = " +
                              format_percent(engine::analyze(zb).bubble_fraction)) ==
          Lines{measured_split(schedule_of(zb))});
    CHECK(held(s) == Lines{"4", "4", "4", "4"});  // ZB-H1 keeps 1F1B's peak of p
}

// Left of each row the model's loaf cut into the pipeline's chunks: with GPipe each GPU holds one
// consecutive quarter (two of eight slices, in its own row's height, stage i the i-th quarter);
// interleaved with two chunks, GPU 0 holds the first and the fifth eighth, apart.
TEST_CASE("pipeline_bubble: each row holds its chunks of the loaf", "[chapters][pipeline_bubble]") {
    const ChapterSpec kSpec = load();
    const auto chapter = make_chapter(kSpec, Video{}, chapter_test::kMetrics);
    const Palette& p = palette(ThemeName::dark);
    const auto held = [&](double t) {  // every row's loaf, top down, in the left margin
        std::vector<Rect> out;
        for (const chapter_test::Loaf& loaf : chapter_test::loaves(chapter->scene_at(t))) {
            CHECK(loaf.box.x >= 90);
            CHECK(loaf.box.right() <= 150);
            CHECK(loaf.box.y >= kTop);
            for (const Rect& r : loaf.held)
                if (r.fill == p.weights) out.push_back(r);
        }
        return out;
    };
    const std::vector<Rect> gpipe = held(10);
    REQUIRE(gpipe.size() == 8);
    const double row = (kBottom - kTop) / 4;
    for (int k = 0; k < 8; ++k) {
        const int stage = k / 2;
        CHECK(gpipe[k].y >= kTop + stage * row);
        CHECK(gpipe[k].y + gpipe[k].h <= kTop + (stage + 1) * row);
    }
    // Consecutive: the two slices of a stage touch but for the 2-px gap between slices.
    CHECK(gpipe[1].y - (gpipe[0].y + gpipe[0].h) == Approx(2));

    const std::vector<Rect> interleaved = held(29.9);
    REQUIRE(interleaved.size() == 8);
    // GPU 0's two slices: the first and the fifth of its eight, three slices apart.
    CHECK(interleaved[1].y - interleaved[0].y == Approx(4 * (interleaved[0].h + 2)));
    CHECK(interleaved[1].y + interleaved[1].h <= kTop + row);
}

TEST_CASE("pipeline_bubble: sixteen micro-batches numbered on every stage, 10 to 16 too",
          "[chapters]") {
    ChapterSpec spec =
        chapter_test::without_sets(chapter_test::load_spec("kind_pipeline_bubble.yaml"));
    spec.config.training.micro_batches = 16;
    spec.config.training.schedule = engine::Schedule::one_f_one_b;
    const auto chapter = make_chapter(spec, Video{}, chapter_test::kMetrics);
    const Scene s = chapter->scene_at(spec.duration - 0.01);
    // Each stage's backward slots carry their numbers (a forward slot is a third as wide).
    for (int m = 1; m <= 16; ++m) {
        INFO("micro-batch " << m);
        CHECK(on_screen::count(s, std::to_string(m)) >= spec.config.layout.pp);
    }
}
