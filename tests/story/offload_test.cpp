// offload: what GPU 0 and its host hold, the bytes each step sends down and up the PCIe link, its
// speed, and the step's compute and PCIe time are the engine's for the configuration showing,
// before and after each `set:` (none, optimizer, optimizer+params); the verdict follows
// engine::exposed_offload_seconds; parts cross the link as parcels only while offload changes.
#include "engine/offload.hpp"

#include "engine/report.hpp"
#include "story/scene/theme.hpp"
#include "story/text/format.hpp"
#include "story/vocab/vocab.hpp"
#include "tests/catch.hpp"
#include "tests/story/chapter_fixture.hpp"
#include "tests/story/on_screen.hpp"

using namespace story;
using chapter_test::count_rects;
using chapter_test::kMetrics;
using chapter_test::load_spec;
using on_screen::Lines;

namespace {

// The chapter's square tokens by their side: a step's chunks on the lanes, and the larger parcels
// a `set:` of offload sends across. The sides are copied, so each state's tokens are compared with
// a list that is not empty in some other state: a side that drifts fails there.
constexpr double kChunk = 18, kParcel = 30;

// Which parts (weights, gradients, optimizer) have tokens of side `side` drawn.
Lines parts_drawn(const Scene& s, double side) {
    const Palette& p = palette(ThemeName::dark);
    const std::pair<const char*, Color> parts[] = {
        {"weights", p.weights}, {"gradients", p.gradients}, {"optimizer", p.optimizer}};
    Lines out;
    for (const auto& [name, colour] : parts)
        if (count_rects(s, side, side, colour) > 0) out.push_back(name);
    return out;
}

engine::Config with_offload(engine::Config c, engine::Offload o) {
    c.layout.offload = o;
    return c;
}

// The status column for configuration c: what is offloaded, under the line naming the model.
Lines status(const Scene& s, const engine::Config& c) {
    return on_screen::column_under(s, format_params(engine::analyze(c).params) +
                                          " parameters · ZeRO-" + std::to_string(c.layout.zero) +
                                          " over " + std::to_string(c.layout.gpus) + " " +
                                          gpu_display_name(c.cluster.gpu) + "s");
}

// Every figure the chapter reads out for configuration c, as it shows it: each card's holdings
// under its name, each lane's bytes under its label and the link's speed under the lower one.
void check_figures(const Scene& s, const engine::Config& c) {
    const engine::Report r = engine::analyze(c);
    CHECK(on_screen::under(s, "GPU 0") == format_bytes(r.per_gpu.total.value) + " on the GPU");
    CHECK(on_screen::under(s, "Host") == format_bytes(r.per_gpu.host.value) + " on the host");
    CHECK(on_screen::column_under(s, "Gradients down to the host") ==
          Lines{format_bytes(r.offload.down.value) + " a step"});
    const double link_gap = 1.5;  // the link's name stands a little further down
    CHECK(on_screen::column_under(s, "Parameters back up", link_gap) ==
          Lines{format_bytes(r.offload.up.value) + " a step",
                "PCIe: " + format_bandwidth(engine::pcie_each_way(c.cluster.gpu).value) +
                    " each way"});
    CHECK(on_screen::row_beside(s, "Compute") == Lines{format_time(r.step.compute_seconds)});
    CHECK(on_screen::row_beside(s, "PCIe") == Lines{format_time(r.offload.seconds.value)});
    CHECK(on_screen::stat(s, "Per card") == chapter_test::per_card(r));
}

}  // namespace

TEST_CASE("offload reads out the engine's memory, PCIe bytes and step times",
          "[chapters][offload]") {
    const ChapterSpec spec = load_spec("kind_offload.yaml", "offload");
    const auto chapter = make_chapter(spec, Video{}, kMetrics);
    const engine::Config none = spec.config;
    REQUIRE(none.layout.offload == engine::Offload::none);
    REQUIRE(none.layout.zero == 3);

    // Nothing offloaded: the GPU overflows, the host holds nothing, nothing crosses.
    const Scene at6 = chapter->scene_at(6);
    check_figures(at6, none);
    CHECK_FALSE(engine::analyze(none).per_gpu.fits);
    CHECK(status(at6, none) == Lines{"Offload: none, all on the GPU"});
    CHECK(on_screen::under(at6, "PCIe") == "Nothing crosses PCIe");
    CHECK(parts_drawn(at6, kChunk) == Lines{});

    // Optimizer offloaded (after 8-10 s): optimizer state and gradients on the host, each step's
    // traffic on the lanes, and (overlap: all) the PCIe time hidden behind compute.
    const engine::Config opt = with_offload(none, engine::Offload::optimizer);
    const engine::Report ro = engine::analyze(opt);
    const Scene at14 = chapter->scene_at(14);
    check_figures(at14, opt);
    CHECK(ro.per_gpu.fits);
    CHECK(ro.per_gpu.offloaded.weights.value == 0);
    CHECK(status(at14, opt) == Lines{"Offload: optimizer"});
    CHECK(engine::exposed_offload_seconds(opt, ro.offload, ro.step).value == 0);
    CHECK(on_screen::under(at14, "PCIe") == "Hidden behind compute");
    CHECK(parts_drawn(at14, kChunk) == Lines{"weights", "gradients"});

    // Parameters too (after 18-20 s): the weights come up for every forward and backward.
    const engine::Config all = with_offload(none, engine::Offload::optimizer_params);
    const Scene at25 = chapter->scene_at(25);
    check_figures(at25, all);
    CHECK(status(at25, all) == Lines{"Offload: optimizer+params"});
    CHECK(parts_drawn(at25, kChunk) == Lines{"weights", "gradients"});
    CHECK(engine::analyze(all).offload.up > ro.offload.up);
}

TEST_CASE("offload sends across as parcels only the parts that move, only while they move",
          "[chapters][offload]") {
    const auto chapter = make_chapter(load_spec("kind_offload.yaml", "offload"), Video{}, kMetrics);
    // Mid-morph (8-10 s) the optimizer state and the gradients go; then (18-20 s) the weights.
    CHECK(parts_drawn(chapter->scene_at(9), kParcel) == Lines{"gradients", "optimizer"});
    CHECK(parts_drawn(chapter->scene_at(19), kParcel) == Lines{"weights"});
    for (double t : {6.0, 14.0, 25.0}) {
        INFO("at " << t << " s, offload steady");
        CHECK(parts_drawn(chapter->scene_at(t), kParcel) == Lines{});
    }
}

TEST_CASE("offload says how much PCIe time a step exposes when it is not overlapped",
          "[chapters][offload]") {
    ChapterSpec spec = load_spec("kind_offload.yaml", "offload");
    spec.config.training.overlap = engine::Overlap::none;
    const auto chapter = make_chapter(spec, Video{}, kMetrics);
    const engine::Config opt = with_offload(spec.config, engine::Offload::optimizer);
    const engine::Report r = engine::analyze(opt);
    const double exposed = engine::exposed_offload_seconds(opt, r.offload, r.step).value;
    CHECK(exposed == r.offload.seconds.value);
    CHECK(on_screen::under(chapter->scene_at(14), "PCIe") ==
          "Adds " + format_time(exposed) + " to each step");
}
