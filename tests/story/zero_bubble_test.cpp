// zero_bubble: the engine's 1F1B, ZB-H1, ZB-H2 and DualPipe schedules slot for slot; each GPU's
// idle share, peak micro-batches held and their bytes read out beside its row are the engine's;
// on a `set:` the Ws slide from their place in the old schedule to their place in the new one;
// what the kind cannot draw is refused with a reason.
#include <cmath>

#include "chapter_fixture.hpp"
#include "engine/memory.hpp"
#include "engine/report.hpp"
#include "story/text/format.hpp"
#include "story/vocab/pipeline_timeline.hpp"
#include "tests/catch.hpp"
#include "tests/story/on_screen.hpp"

using namespace story;
using on_screen::Lines;
using on_screen::stat;

namespace {

constexpr Box kArea{250, 340, 1050, 360};  // the timeline box
const PassColors kColors = pass_colors(palette(ThemeName::dark));

ChapterSpec load() { return chapter_test::load_spec("kind_zero_bubble.yaml", "zb"); }

std::vector<Rect> filled_with(const Scene& s, Color c) {
    return chapter_test::rects(s, c, kArea.x, kArea.y, kArea.right(), kArea.bottom());
}

// A rect of the scene whose left edge (after its padding) is at x on the row of y.
bool has_rect_at(const std::vector<Rect>& pool, double x, double y) {
    return std::any_of(pool.begin(), pool.end(), [&](const Rect& r) {
        return std::abs(r.x - x) < 2 && std::abs(r.y - y) < 4;
    });
}

// Every F, B and W of the engine's schedule is one rect at its start, and nothing else is.
void check_split_slots(const Scene& s, const engine::PipelineSchedule& sched) {
    const LaidOutSchedule laid = lay_out(sched, kArea);
    const auto forward = filled_with(s, kColors.forward), input = filled_with(s, kColors.backward),
               weight = filled_with(s, kColors.weight_grad);
    REQUIRE(forward.size() + input.size() + weight.size() == sched.slots.size());
    for (std::size_t i = 0; i < sched.slots.size(); ++i) {
        const engine::PipelineSlot& slot = sched.slots[i];
        INFO("stage " << slot.stage << " micro-batch " << slot.micro_batch << " start "
                      << slot.start);
        const auto& pool = slot.pass == engine::Pass::forward           ? forward
                           : slot.pass == engine::Pass::backward_weight ? weight
                                                                        : input;
        CHECK(has_rect_at(pool, laid.boxes[i].x, laid.boxes[i].y));
    }
}

// The first n texts of a column beside the rows (the read-outs under the timeline follow them).
Lines rows_under(const Scene& s, const std::string& head, int n = 4) {
    Lines all = on_screen::column_under(s, head, 3);
    if (int(all.size()) > n) all.resize(n);
    return all;
}

// Under the formula: the bubble measured on the timeline drawn, the most idle GPU's share of its
// own span.
std::string measured(const engine::PipelineSchedule& sched) {
    return "Measured on this timeline: the most idle GPU waits " +
           format_percent(sched.bubble_share()) + " of its own span";
}

// Under that: GPU 0's activations at its peak (and from the second state on, the first's).
std::string holds(const engine::Config& c) {
    return "GPU 0 holds " + format_bytes(engine::analyze(c).per_gpu.activations.value) +
           " of activations at its peak";
}

// Beside each row: the engine's idle share, peak micro-batches held and their activations.
void check_columns(const Scene& s, const engine::Config& c) {
    const engine::PipelineSchedule sched = schedule_of(c);
    Lines idle, held, bytes;
    for (int st = 0; st < sched.stages; ++st) {
        idle.push_back(format_percent(sched.idle_share(st)));
        held.push_back(format_int(sched.max_in_flight(st)));
        bytes.push_back(format_bytes(engine::activations_held(c, sched.max_in_flight(st)).value));
    }
    CHECK(rows_under(s, "Idle share", sched.stages) == idle);
    CHECK(rows_under(s, "Peak held", sched.stages) == held);
    CHECK(rows_under(s, "Activations", sched.stages) == bytes);
    // GPU 0's peak is engine::analyze's per-GPU activations, and the panel's bubble its figure.
    const engine::Report r = engine::analyze(c);
    CHECK(bytes.front() == format_bytes(r.per_gpu.activations.value));
    CHECK(stat(s, "Bubble") == Lines{format_percent(r.bubble_fraction)});
    CHECK(stat(s, "Per card") == chapter_test::per_card(r));
    CHECK(on_screen::under(s, measured(sched)).starts_with(holds(c)));
}

}  // namespace

TEST_CASE("zero_bubble: 1F1B, its backward split, then ZB-H1, ZB-H2 and DualPipe",
          "[chapters][zero_bubble]") {
    const ChapterSpec spec = load();
    const auto chapter = make_chapter(spec, Video{}, chapter_test::kMetrics);
    const Timeline timeline(spec, Video{}.fps);
    REQUIRE(timeline.states().size() == 4);
    const engine::Config &ofob = timeline.states()[0], &h1 = timeline.states()[1],
                         &h2 = timeline.states()[2], &dual = timeline.states()[3];
    REQUIRE(ofob.training.schedule == engine::Schedule::one_f_one_b);
    REQUIRE(dual.training.schedule == engine::Schedule::dualpipe);

    // 1F1B before the split: whole backwards, one rect each, (p-1)/(m+p-1).
    const Scene at8 = chapter->scene_at(9);
    const engine::PipelineSchedule s1 = schedule_of(ofob);
    CHECK(filled_with(at8, kColors.backward).size() == 32u);
    CHECK(filled_with(at8, kColors.weight_grad).empty());
    CHECK(on_screen::column_under(
              at8, "Bubble = (p − 1) / (m + p − 1) = (4 − 1) / (8 + 4 − 1) = 27.3%") ==
          Lines{measured(s1), holds(ofob)});
    check_columns(at8, ofob);
    CHECK(rows_under(at8, "Peak held") == Lines{"4", "3", "2", "1"});

    // Split: each whole backward is its B half and W half, in place (the timing is 1F1B's).
    const Scene at13 = chapter->scene_at(13);
    const LaidOutSchedule laid1 = lay_out(s1, kArea);
    const auto inputs = filled_with(at13, kColors.backward),
               weights = filled_with(at13, kColors.weight_grad);
    CHECK(inputs.size() == 32u);
    CHECK(weights.size() == 32u);
    for (std::size_t i = 0; i < s1.slots.size(); ++i)
        if (s1.slots[i].pass == engine::Pass::backward) {
            CHECK(has_rect_at(inputs, laid1.boxes[i].x + 1.5, laid1.boxes[i].y + 3));
            CHECK(has_rect_at(weights, laid1.boxes[i].cx() + 1.5, laid1.boxes[i].y + 3));
        }

    // Each schedule at rest: its slots, formula, columns; ZB-H1 keeps 1F1B's memory, ZB-H2 holds
    // 2p-1 micro-batches, DualPipe p+1 on every GPU.
    const Scene at19 = chapter->scene_at(19.5);
    check_split_slots(at19, schedule_of(h1));
    check_columns(at19, h1);
    CHECK(on_screen::under(at19, "Bubble = (p − 1) / (3m + p − 1) = (4 − 1) / (3·8 + 4 − 1) = " +
                                     format_percent(engine::analyze(h1).bubble_fraction)) ==
          measured(schedule_of(h1)));
    const Scene at26 = chapter->scene_at(26.5);
    check_split_slots(at26, schedule_of(h2));
    check_columns(at26, h2);
    CHECK(rows_under(at26, "Peak held") == Lines{"7", "7", "7", "7"});
    CHECK(rows_under(at26, "Idle share") == Lines{"0%", "0%", "0%", "0%"});
    // The memory the schedule costs, beside the first state's.
    CHECK(on_screen::under(at26, measured(schedule_of(h2))) ==
          holds(h2) + " (1F1B: " + format_bytes(engine::analyze(ofob).per_gpu.activations.value) +
              ")");
    const Scene end = chapter->scene_at(35.5);
    check_split_slots(end, schedule_of(dual));
    check_columns(end, dual);
    CHECK(rows_under(end, "Peak held") == Lines{"5", "5", "5", "5"});
}

// Mid-morph: every W is on the straight way from its place in 1F1B (the right half of its whole
// backward) to its place in ZB-H1, and the figures count between the engine's two values.
TEST_CASE("zero_bubble: the Ws slide from 1F1B into ZB-H1's bubble", "[chapters][zero_bubble]") {
    const ChapterSpec spec = load();
    const auto chapter = make_chapter(spec, Video{}, chapter_test::kMetrics);
    const Timeline timeline(spec, Video{}.fps);
    const double t = 15;
    const Morph m = timeline.morph_at(t);
    REQUIRE(m.from == 0);
    REQUIRE(m.to == 1);
    REQUIRE(m.u > 0.2);
    REQUIRE(m.u < 0.8);
    const LaidOutSchedule a = lay_out(schedule_of(timeline.states()[0]), kArea);
    const LaidOutSchedule b = lay_out(schedule_of(timeline.states()[1]), kArea);
    const Scene s = chapter->scene_at(t);
    const auto weights = filled_with(s, kColors.weight_grad);
    CHECK(weights.size() == 32u);
    int moved = 0;
    for (std::size_t j = 0; j < b.schedule.slots.size(); ++j) {
        const engine::PipelineSlot& w = b.schedule.slots[j];
        if (w.pass != engine::Pass::backward_weight) continue;
        const auto it = std::find_if(
            a.schedule.slots.begin(), a.schedule.slots.end(), [&](const engine::PipelineSlot& x) {
                return x.stage == w.stage && x.micro_batch == w.micro_batch &&
                       x.pass == engine::Pass::backward;
            });
        REQUIRE(it != a.schedule.slots.end());
        const Box& from = a.boxes[it - a.schedule.slots.begin()];
        const double x = lerp(from.cx(), b.boxes[j].x, m.u) + 1.5;  // its side padding
        INFO("W of micro-batch " << w.micro_batch << " on stage " << w.stage);
        CHECK(has_rect_at(weights, x, b.boxes[j].y + 3));
        moved += std::abs(from.cx() - b.boxes[j].x) > 1;
    }
    CHECK(moved > 0);
    // Nothing leaves the timeline, and the numbers on the slots stand aside while they slide.
    for (const Item& item : s.items)
        if (const auto* r = std::get_if<Rect>(&item.shape);
            r && (r->fill == kColors.weight_grad || r->fill == kColors.backward)) {
            CHECK(r->x >= kArea.x - 1e-6);
            CHECK(r->x + r->w <= kArea.right() + 1e-6);
        }
    CHECK(on_screen::count(chapter->scene_at(9), "8") > 0);  // at rest, before the morph
    CHECK(on_screen::count(s, "8") == 0);
    // The slots slide; the bubble is one state's, never a blend.
    const Lines bubble = stat(s, "Bubble");
    CHECK((bubble == Lines{"27.3%"} ||
           bubble == Lines{format_percent(engine::analyze(timeline.states()[1]).bubble_fraction)}));
}

TEST_CASE("zero_bubble refuses what it cannot draw", "[chapters][zero_bubble]") {
    const KindInfo* kind = find_kind("zero_bubble");
    REQUIRE(kind != nullptr);
    REQUIRE(kind->cannot_draw != nullptr);
    const ChapterSpec spec = load();
    CHECK_FALSE(kind->cannot_draw(spec.config));
    CHECK(config_problems(spec.config, kind).empty());

    engine::Config deep = spec.config;
    deep.layout.pp = 16;
    CHECK(kind->cannot_draw(deep) == "zero_bubble draws at most 8 pipeline stages (pp), got 16");
    engine::Config many = spec.config;
    many.training.micro_batches = 64;
    CHECK(kind->cannot_draw(many) == "zero_bubble draws at most 32 micro-batches, got 64");
    engine::Config inter = spec.config;
    inter.training.schedule = engine::Schedule::interleaved;
    CHECK(kind->cannot_draw(inter) ==
          "zero_bubble draws one stage per GPU; the interleaved schedule is pipeline_bubble's");
}
