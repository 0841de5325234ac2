// expert_parallel: the parameters, experts per GPU and all-to-all bytes and time read out are the
// engine's for the configuration showing, before and after each `set:` (ep, then the capacity
// factor, under which copies over capacity are drawn dropped); what the kind cannot draw (a dense
// model, too many cards or experts per card) is refused with a reason.
#include "engine/comm.hpp"
#include "engine/presets.hpp"
#include "engine/report.hpp"
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

engine::Config with_ep(engine::Config c, int ep) {
    c.layout.ep = ep;
    return c;
}

// The cards in a row, GPU 0 first and no other, each naming the experts it holds: experts / ep
// of them; over them, the gate's line.
void check_experts(const Scene& s, int gpus, int experts, int ep, const std::string& gate) {
    Lines others;
    for (int g = 1; g < gpus; ++g) others.push_back("GPU " + std::to_string(g));
    CHECK(on_screen::row_beside(s, "GPU 0") == others);
    CHECK(on_screen::above(s, "GPU 0") == gate);
    const int per_card = experts / ep;
    for (int e = 0; e < experts; ++e) {
        const std::string name = (per_card == 1 ? "Expert " : "E") + std::to_string(e);
        INFO(name);
        CHECK(on_screen::count(s, name) == gpus / ep);
    }
}

// The line under the parameter counts: what one all-to-all routes from a GPU.
std::string dispatch(const Scene& s) {
    const Lines column = on_screen::column_under(s, "Parameters in total", 1.3);
    return column.size() == 2 ? column.back() : "(no line under the parameters)";
}

void check_all_to_all(const Scene& s, const engine::Config& c) {
    const engine::Report r = engine::analyze(c);
    CHECK(r.comm.ep_per_gpu.value > 0);
    CHECK(on_screen::column_under(
              s, "All-to-all across ep " + std::to_string(c.layout.ep) + " GPUs, each sends") ==
          Lines{format_bytes(r.comm.ep_per_gpu.value) + " per step",
                "at " + format_bandwidth(engine::group_bandwidth(c, engine::Group::ep).value) +
                    " each way: " + format_time(r.comm.ep_time.value)});
    CHECK(stat(s, "Comm / step") ==
          Lines{format_bytes(r.comm.sent_per_gpu().value), comm_detail(r.comm, Locale("en"))});
    CHECK(stat(s, "Per card") == chapter_test::per_card(r));
}

}  // namespace

TEST_CASE("expert_parallel reads out the engine's parameters, experts per GPU and all-to-all",
          "[chapters][experts]") {
    const ChapterSpec spec = load_spec("kind_expert_parallel.yaml", "experts");
    const auto chapter = make_chapter(spec, Video{}, kMetrics);
    const engine::Config one = spec.config;
    REQUIRE(one.model.experts == 8);
    REQUIRE(one.model.top_k == 2);
    REQUIRE(one.layout.gpus == 8);
    REQUIRE(one.layout.ep == 1);
    const engine::Report r1 = engine::analyze(one);

    // Total and active parameters: the engine's, whatever ep is.
    const Lines params{format_params(r1.params)}, active{format_params(r1.params_active)};
    CHECK(r1.params_active < r1.params / 3);  // two of eight experts, plus attention
    const Scene at7 = chapter->scene_at(7);
    CHECK(on_screen::column_under(at7, "Parameters in total") == params);
    CHECK(on_screen::column_under(at7, "Active per token") == active);

    // The buffer one all-to-all routes from a GPU, sized by the capacity factor, under them.
    CHECK(dispatch(at7) == "An all-to-all would route " +  // ep 1: there is none
                               format_bytes(engine::expert_dispatch_buffer(one).value) +
                               " a GPU (capacity factor 1)");

    // ep 1: every GPU holds all eight experts, and nothing crosses between cards.
    check_experts(at7, 8, 8, 1,
                  "Gate: each token goes to its top 2 of 8 experts · 8 per GPU (ep 1)");
    CHECK(r1.comm.ep_per_gpu.value == 0);
    CHECK(on_screen::column_under(at7, "ep 1: every GPU holds every expert") ==
          Lines{"no all-to-all"});
    CHECK(stat(at7, "Per card") == chapter_test::per_card(r1));

    // ep 2 (after the morph at 9-11 s): four experts per GPU, the all-to-all within each pair.
    const Scene at14 = chapter->scene_at(14);
    check_experts(at14, 8, 8, 2,
                  "Gate: each token goes to its top 2 of 8 experts · 4 per GPU (ep 2)");
    check_all_to_all(at14, with_ep(one, 2));

    // Halfway through the ep 2 -> 8 morph (16-18 s) the bytes are the state's showing, ep 8's,
    // never a blend.
    const Scene mid = chapter->scene_at(17.2);
    const Lines counting = on_screen::column_under(mid, "All-to-all across ep 8 GPUs, each sends");
    REQUIRE(counting.size() == 2);
    CHECK(counting[0] ==
          format_bytes(engine::analyze(with_ep(one, 8)).comm.ep_per_gpu.value) + " per step");
    CHECK(on_screen::row_beside(mid, "Parameters in total") ==
          Lines{"Active per token", "All-to-all across ep 8 GPUs, each sends"});

    // ep 8 (after 16-18 s): one expert per GPU, the all-to-all across the node.
    const Scene at25 = chapter->scene_at(25);
    check_experts(at25, 8, 8, 8,
                  "Gate: each token goes to its top 2 of 8 experts · 1 per GPU (ep 8)");
    check_all_to_all(at25, with_ep(one, 8));
    CHECK(on_screen::column_under(at25, "Parameters in total") == params);
    CHECK(on_screen::column_under(at25, "Active per token") == active);
    // No copy is dropped at capacity factor 1.
    const Palette& p = palette(ThemeName::dark);
    CHECK(chapter_test::stroked(at25, p.activations) == 0);

    // capacity_factor 0.5 (after 27-28 s): the buffer and the bytes halve, as the engine says,
    // and the copies over capacity stay home outlined.
    engine::Config half = with_ep(one, 8);
    half.training.capacity_factor = 0.5;
    const Scene at31 = chapter->scene_at(31);
    check_all_to_all(at31, half);
    CHECK(dispatch(at31) == "Each all-to-all routes " +
                                format_bytes(engine::expert_dispatch_buffer(half).value) +
                                " a GPU (capacity factor 0.5)");
    CHECK(engine::expert_dispatch_buffer(half).value ==
          Approx(engine::expert_dispatch_buffer(one).value / 2));
    CHECK(on_screen::above(at31, "GPU 0") ==
          "Gate: each token goes to its top 2 of 8 experts · 1 per GPU (ep 8) · outlined: over "
          "capacity, dropped");
    CHECK(chapter_test::stroked(at31, p.activations) > 0);

    // Splitting the experts shrinks what each card holds.
    CHECK(engine::analyze(with_ep(one, 8)).per_gpu.total < r1.per_gpu.total);
}

TEST_CASE("expert_parallel refuses what it cannot draw", "[chapters][experts]") {
    const KindInfo* kind = find_kind("expert_parallel");
    REQUIRE(kind != nullptr);
    REQUIRE(kind->cannot_draw != nullptr);
    const ChapterSpec spec = load_spec("kind_expert_parallel.yaml", "experts");
    CHECK_FALSE(kind->cannot_draw(spec.config));
    CHECK(config_problems(spec.config, kind).empty());

    engine::Config dense = spec.config;
    dense.model = *engine::find_model("llama-2-7b");
    dense.layout.ep = 1;
    CHECK(kind->cannot_draw(dense) ==
          "expert_parallel draws a mixture-of-experts model; llama-2-7b is dense (no experts)");

    engine::Config wide = spec.config;
    wide.layout.gpus = 16;
    wide.cluster.nodes = 2;
    CHECK(kind->cannot_draw(wide) == "expert_parallel draws at most 8 GPUs, got 16");

    engine::Config deepseek = spec.config;
    deepseek.model = *engine::find_model("deepseek-v3");
    CHECK(kind->cannot_draw(deepseek) ==
          "expert_parallel draws at most 16 experts per GPU, got 256 (raise ep)");
}
