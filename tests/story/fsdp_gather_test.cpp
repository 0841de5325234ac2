// fsdp_gather: the film follows engine::fsdp_plan (slices forward, then backward), the gauge
// shows the plan's resident bytes, and the traffic reads 1.5x data parallel.
#include <algorithm>
#include <cmath>

#include "engine/fsdp.hpp"
#include "engine/report.hpp"
#include "story/chapter/fsdp_film.hpp"
#include "story/scene/theme.hpp"
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

// The figure under each card (whose bottom is at 850 px), GPU 0 first: the nearest text below
// the card under its name (the magnified top's figure, inside the card, does not count).
Lines gauges(const Scene& s, int cards) {
    const std::vector<on_screen::Shown> all = on_screen::shown(s);
    Lines out;
    for (int k = 0; k < cards; ++k) {
        const std::string name = "GPU " + std::to_string(k);
        const auto label = std::find_if(all.begin(), all.end(),
                                        [&](const on_screen::Shown& x) { return x.text == name; });
        REQUIRE(label != all.end());
        const on_screen::Shown* best = nullptr;
        for (const on_screen::Shown& x : all)
            if (x.top >= 850 && x.left < label->right && x.right > label->left &&
                (!best || x.top < best->top))
                best = &x;
        out.push_back(best ? best->text : "(nothing under the card)");
    }
    return out;
}

// The configuration the chapter draws: FSDP is ZeRO-3.
engine::Config zero3(const ChapterSpec& spec) {
    engine::Config c = spec.config;
    c.layout.zero = 3;
    return c;
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
    engine::Config c = zero3(spec);
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
    CHECK(headline(before) == Lines{"Each card keeps 1/8 of every layer",
                                    "Peak model states per card: " + peak + " = 14" + ts +
                                        "GB of shards + one layer and its gradients"});

    // Mid-forward-compute, every card holds the shards plus the gathered layer, its magnified
    // top the layer's bytes.
    const Scene compute = chapter->scene_at(5.5 + 0.45 + 0.15);
    CHECK(gauges(compute, 8) ==
          Lines(8, format_bytes(plan.sharded_states.value + plan.layer_full_bytes.value)));
    CHECK(on_screen::under(compute, "GPU 3") == "+" + format_bytes(plan.layer_full_bytes.value));

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

namespace {
// GPU 0's card (the first of eight in the chapter's row) and the weights or gradients cells of
// its magnified top, fully drawn: narrower than a tenth of the card, where its stack is wider.
constexpr double kCard0[4] = {600, 450, 740, 850};
std::vector<Rect> cells(const Scene& s, Color fill) {
    std::vector<Rect> out =
        chapter_test::rects(s, fill, kCard0[0], kCard0[1], kCard0[2], kCard0[3]);
    std::erase_if(out, [](const Rect& r) { return r.w > 20; });
    return out;
}
// The stack's sharded weights: the widest weights rect of GPU 0's card.
Rect stack_weights(const Scene& s, Color fill) {
    std::vector<Rect> all =
        chapter_test::rects(s, fill, kCard0[0], kCard0[1], kCard0[2], kCard0[3]);
    REQUIRE_FALSE(all.empty());
    return *std::max_element(all.begin(), all.end(),
                             [](const Rect& a, const Rect& b) { return a.w < b.w; });
}
}  // namespace

// The gathered layer is drawn large: each card's top of the stack magnified (by the factor the
// note names), a cell per shard filling as the shards arrive, the gradients' row growing through
// the backward pass, each row's height its bytes at the magnified scale.
TEST_CASE("fsdp_gather magnifies the gathered layer and its gradients on every card",
          "[chapters][fsdp]") {
    const ChapterSpec spec = load_spec("kind_fsdp_gather.yaml", "fsdp");
    const auto chapter = make_chapter(spec, Video{}, kMetrics);
    const engine::FsdpPlan plan = engine::fsdp_plan(zero3(spec));
    const Palette& p = palette(ThemeName::dark);

    // Slice 2's forward compute: all eight weights cells full, no gradients.
    const Scene compute = chapter->scene_at(5.5 + 0.95 + 0.45 + 0.15);
    const std::vector<Rect> full = cells(compute, p.weights);
    REQUIRE(full.size() == 8);
    CHECK(cells(compute, p.gradients).empty());
    // Their height at the stack's scale, magnified by the note's factor.
    const Rect stack = stack_weights(compute, p.weights);
    const double stack_px = stack.h / (plan.sharded_states.value * 2 / 16);  // bf16 of 16 bytes
    const double zoom = (full.front().h / plan.layer_full_bytes.value) / stack_px;
    const std::string note = headline(compute).at(2);
    CHECK(note == "Inside each card, its top magnified " + std::to_string(std::lround(zoom)) +
                      "×: one layer's weights " + format_bytes(plan.layer_full_bytes.value) +
                      " and gradients " + format_bytes(plan.layer_grad_bytes.value));
    CHECK(zoom > 20);

    // Mid-gather of slice 2, GPU 0 holds its own shard and those that have arrived.
    const double gather = 5.5 + 0.95, at = 0.5;
    const Scene mid = chapter->scene_at(gather + 0.45 * at);
    int arrived = 0;
    for (int j = 0; j < 8; ++j) arrived += j == 0 || at >= fsdp_arrival(0, j, 8);
    REQUIRE(arrived > 1);
    REQUIRE(arrived < 8);
    CHECK(static_cast<int>(cells(mid, p.weights).size()) == arrived);
    CHECK(on_screen::under(mid, "GPU 0") ==
          "+" + format_bytes(plan.layer_full_bytes.value * arrived / 8));

    // Halfway through slice 8's backward compute the gradients' row is half grown, as tall at
    // full as the weights' (bf16 both).
    const Scene back = chapter->scene_at(5.5 + 0.95 * 8 + 0.4 + 0.55 / 2);
    const std::vector<Rect> grads = cells(back, p.gradients);
    REQUIRE(grads.size() == 8);
    CHECK(grads.front().h == Approx(full.front().h / 2).epsilon(0.02));
    CHECK(on_screen::under(back, "GPU 0") ==
          "+" + format_bytes(plan.layer_full_bytes.value + plan.layer_grad_bytes.value / 2));
}
