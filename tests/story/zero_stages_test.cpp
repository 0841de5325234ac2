// zero_stages: the per-card model states of each stage and the reduction against plain data
// parallelism are the engine's, and match ZeRO Table 1 at 64 cards.
#include "engine/memory.hpp"
#include "engine/report.hpp"
#include "story/text/format.hpp"
#include "tests/catch.hpp"
#include "tests/story/chapter_fixture.hpp"
#include "tests/story/on_screen.hpp"

using namespace story;
using chapter_test::kMetrics;
using chapter_test::load_spec;
using on_screen::cell;
using on_screen::Lines;
using on_screen::row_beside;
using on_screen::stat;

namespace {
const std::string ts = kThinSpace;
const char* const kStage[4] = {"Plain DP", "ZeRO-1", "ZeRO-2", "ZeRO-3"};  // the table's rows

double states(engine::Config c, int zero) {
    c.layout.zero = zero;
    const engine::PerGpu g = engine::per_gpu_memory(c);
    return (g.weights + g.gradients + g.optimizer).value;
}

// The table read down: its rows' names with what each shards under them, a row's height apart.
Lines table_rows(const Scene& s) { return on_screen::column_under(s, "Model states per card", 2); }

// The row of cards, read left to right from GPU 0.
Lines cards(const Scene& s) {
    Lines row = row_beside(s, "GPU 0");
    row.insert(row.begin(), "GPU 0");
    return row;
}
}  // namespace

TEST_CASE("zero_stages steps through the stages with the engine's figures", "[chapters][zero]") {
    const ChapterSpec spec = load_spec("kind_zero_stages.yaml", "zero");
    const auto chapter = make_chapter(spec, Video{}, kMetrics);
    engine::Config c = spec.config;
    REQUIRE(c.layout.gpus == 8);
    // Times after each `set: {zero: k}` morph has settled, and before the next.
    const double settled[4] = {3.5, 8.5, 13.5, 19.5};
    for (int z = 0; z < 4; ++z) {
        INFO("stage " << z);
        c.layout.zero = z;
        const engine::Report r = engine::analyze(c);
        const Scene s = chapter->scene_at(settled[z]);
        const std::string ratio = format_sig3(states(c, 0) / states(c, z)) + "×";
        CHECK(row_beside(s, kStage[z]) == Lines{format_bytes(states(c, z)), ratio});
        CHECK(cell(s, kStage[z], "vs plain DP") == ratio);
        CHECK(stat(s, "Per card") == chapter_test::per_card(r));
        CHECK(stat(s, "Comm / step") ==
              Lines{format_bytes(r.comm.dp_per_gpu.value), comm_detail(r.comm, Locale("en"))});
        CHECK(cards(s) ==
              Lines{"GPU 0", "GPU 1", "GPU 2", "GPU 3", "GPU 4", "GPU 5", "GPU 6", "GPU 7"});
    }
    // Hand-computed at N = 8 for 7B: 112 GB, then 14 + 14 + 84/8, then 14 + 14/8 + 84/8, then
    // 112/8.
    const Scene end3 = chapter->scene_at(19.5);
    CHECK(on_screen::beside(end3, "Plain DP") == "112" + ts + "GB");
    CHECK(on_screen::beside(end3, "ZeRO-1") == "38.5" + ts + "GB");
    CHECK(on_screen::beside(end3, "ZeRO-2") == "26.3" + ts + "GB");
    CHECK(on_screen::beside(end3, "ZeRO-3") == "14" + ts + "GB");
    CHECK(cell(end3, "ZeRO-3", "vs plain DP") == "8×");
    CHECK(table_rows(end3) == Lines{"Plain DP", "nothing sharded", "ZeRO-1",
                                    "optimizer state sharded", "ZeRO-2", "+ gradients sharded",
                                    "ZeRO-3", "+ weights sharded"});
    // Before stage 1 is reached its row is not shown.
    const Scene before = chapter->scene_at(3.5);
    CHECK(table_rows(before) == Lines{"Plain DP", "nothing sharded"});
    CHECK(on_screen::count(before, "38.5" + ts + "GB") == 0);  // ZeRO-1's, beside it at 19.5 s

    // `set: {gpus: 64}`: six cards, a gap, and GPU 63.
    const Scene end = chapter->scene_at(25.9);
    CHECK(cards(end) == Lines{"GPU 0", "GPU 1", "GPU 2", "GPU 3", "GPU 4", "GPU 5", "GPU 63"});
    // The ellipsis stands for the cards left out, between GPU 5 and GPU 63.
    const auto all = on_screen::shown(end);
    const auto at = [&](const std::string& text) {
        return *std::find_if(all.begin(), all.end(), [&](const auto& t) { return t.text == text; });
    };
    REQUIRE(on_screen::count(end, "…") == 1);
    CHECK(at("…").left > at("GPU 5").right);
    CHECK(at("…").right < at("GPU 63").left);
}

TEST_CASE("zero_stages at 64 cards with 7.5B parameters is ZeRO Table 1", "[chapters][zero]") {
    ChapterSpec spec = load_spec("kind_zero_stages.yaml", "zero");
    spec.config.model = engine::nominal_model(7.5e9);
    const auto chapter = make_chapter(spec, Video{}, kMetrics);
    const Scene end = chapter->scene_at(25.9);  // after zero 1, 2, 3 and gpus 64
    CHECK(row_beside(end, "Plain DP") == Lines{"120" + ts + "GB", "1×"});
    CHECK(row_beside(end, "ZeRO-1") == Lines{"31.4" + ts + "GB", "3.82×"});  // "4x" in the paper
    CHECK(row_beside(end, "ZeRO-2") == Lines{"16.6" + ts + "GB", "7.21×"});  // "8x"
    CHECK(row_beside(end, "ZeRO-3") == Lines{"1.88" + ts + "GB", "64×"});    // N x
    // The paper's 4x and 8x are the limits the rows approach, named under their ratios.
    CHECK(row_beside(end, "optimizer state sharded") == Lines{"limit 4×"});
    CHECK(row_beside(end, "+ gradients sharded") == Lines{"limit 8×"});
    CHECK(row_beside(end, "+ weights sharded") == Lines{"limit: the card count"});
    CHECK(row_beside(end, "nothing sharded").empty());
}

TEST_CASE("zero_stages' limits follow the bytes a parameter keeps", "[chapters][zero]") {
    // Gradients accumulated in fp32: 2 + 4 + 12 = 18 bytes, so stage 1 tends to 18 / 6 = 3x and
    // stage 2 to 18 / 2 = 9x.
    ChapterSpec spec = load_spec("kind_zero_stages.yaml", "zero");
    spec.config.training.grad_dtype = engine::GradDtype::fp32;
    const Scene end = make_chapter(spec, Video{}, kMetrics)->scene_at(25.9);
    CHECK(row_beside(end, "optimizer state sharded") == Lines{"limit 3×"});
    CHECK(row_beside(end, "+ gradients sharded") == Lines{"limit 9×"});
}
