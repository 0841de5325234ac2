// bytes_per_parameter reads out the engine's figures beside their labels; the number formats;
// captions burned in only when asked.
#include "engine/report.hpp"
#include "story/chapter/chapter.hpp"
#include "story/chapter/chapter_base.hpp"
#include "story/text/format.hpp"
#include "tests/catch.hpp"
#include "tests/story/on_screen.hpp"

using namespace story;
using on_screen::beside;
using on_screen::column_under;
using on_screen::Lines;
using on_screen::lowest_line;
using on_screen::stat;

namespace {

const ApproxTextMetrics kMetrics;

ChapterSpec bytes_spec() {
    ChapterSpec spec;
    spec.id = "bytes";
    spec.kind = "bytes_per_parameter";
    spec.title = "Why a large model does not fit";
    spec.duration = 26;
    spec.config.model = engine::nominal_model(7e9);
    spec.config.cluster.gpu = *engine::find_gpu("h100-sxm-80gb");
    spec.config.cluster.nvlink = spec.config.cluster.gpu.nvlink;
    spec.config.cluster.network = spec.config.cluster.gpu.network;
    spec.beats = {Beat{0, 0, "Every parameter costs memory.", {}, {}},
                  Beat{14.5, 2, "Scale up.", {{"model", "70B", {}}}, {}},
                  Beat{20, 1.5, "fp8.", {{"precision", "fp8", {}}}, {}}};
    return spec;
}

}  // namespace

TEST_CASE("bytes_per_parameter shows the engine's figures before and after set beats",
          "[chapters]") {
    const ChapterSpec spec = bytes_spec();
    const auto chapter = make_chapter(spec, Video{}, kMetrics);
    engine::Config seven = spec.config;
    const engine::Report r7 = engine::analyze(seven);
    REQUIRE(r7.model_states.value == 112e9);

    const Scene at13 = chapter->scene_at(13);
    CHECK(format_bytes_per_param(r7.bytes_per_param.total()) ==
          "16" + std::string(kThinSpace) + "B");
    CHECK(beside(at13, "Total per parameter") ==
          format_bytes_per_param(r7.bytes_per_param.total()));
    CHECK(beside(at13, "Weights") == format_bytes_per_param(2));  // bf16
    CHECK(stat(at13, "Model states") == Lines{format_bytes(r7.model_states.value)});
    // The product heads the right side, what it means and the cards it takes under it.
    CHECK(column_under(at13, "7B parameters × 16" + std::string(kThinSpace) +
                                 "B = " + format_bytes(r7.model_states.value)) ==
          Lines{"model state before a single activation",
                "2 × 80" + std::string(kThinSpace) + "GB H100 just to hold it"});

    engine::Config seventy = seven;
    seventy.model = engine::nominal_model(70e9);
    const engine::Report r70 = engine::analyze(seventy);
    const Scene at19 = chapter->scene_at(19);
    CHECK(format_bytes(r70.model_states.value) == "1,120" + std::string(kThinSpace) + "GB");
    CHECK(column_under(at19, "70B parameters × 16" + std::string(kThinSpace) + "B = 1,120" +
                                 std::string(kThinSpace) + "GB") ==
          Lines{"model state before a single activation",
                "14 × 80" + std::string(kThinSpace) + "GB H100 just to hold it"});
    CHECK(stat(at19, "Model states") == Lines{format_bytes(r70.model_states.value)});
    // The whole state over 14 drawn cards: named as the state, never "Per card" (issue 33).
    CHECK(on_screen::count(at19, "Per card") == 0);

    engine::Config fp8 = seventy;
    fp8.training.precision = engine::Precision::fp8_mixed;
    const engine::Report r8 = engine::analyze(fp8);
    const Scene end = chapter->scene_at(25.9);
    CHECK(r8.bytes_per_param.total() == 15);  // the total counted down from 16 B
    CHECK(beside(end, "Total per parameter") == format_bytes_per_param(r8.bytes_per_param.total()));
    CHECK(beside(end, "Weights") == format_bytes_per_param(1));  // fp8 weights
    CHECK(stat(end, "Model states") == Lines{format_bytes(r8.model_states.value)});

    // While a set: morphs, the figure is one state's, never a blend of the two.
    const Lines mid = stat(chapter->scene_at(15.5), "Model states");
    CHECK((mid == Lines{format_bytes(r7.model_states.value)} ||
           mid == Lines{format_bytes(r70.model_states.value)}));
}

TEST_CASE("format: 3 significant figures, thousands separators, thin-spaced units", "[format]") {
    const std::string ts = kThinSpace;
    CHECK(format_bytes(112e9) == "112" + ts + "GB");
    CHECK(format_bytes(1120e9) == "1,120" + ts + "GB");
    CHECK(format_bytes(107.8e9) == "108" + ts + "GB");
    CHECK(format_bytes(13.46e9) == "13.5" + ts + "GB");
    CHECK(format_bytes(570425344) == "570" + ts + "MB");
    CHECK(format_bytes(0) == "0" + ts + "B");
    CHECK(format_bytes(999.6e6) == "1" + ts + "GB");
    CHECK(format_bytes_per_param(16) == "16" + ts + "B");
    CHECK(format_time(0.0032) == "3.2" + ts + "ms");
    CHECK(format_time(1.25) == "1.25" + ts + "s");
    CHECK(format_time(0.9996) == "1" + ts + "s");
    CHECK(format_time(0.0009996) == "1" + ts + "ms");
    CHECK(format_time(850e-6) == "850" + ts + "µs");
    CHECK(format_bandwidth(900e9) == "900" + ts + "GB/s");
    CHECK(format_percent(0.125) == "12.5%");
    CHECK(format_params(7e9) == "7B");
    CHECK(format_params(6738415616) == "6.74B");
    CHECK(format_int(1024) == "1,024");
    CHECK(format_sig3(12345) == "12,300");
}

TEST_CASE("captions are burned into the frame only when the video asks for it", "[chapters]") {
    const ChapterSpec spec = bytes_spec();
    for (Captions mode : {Captions::burn, Captions::track, Captions::off}) {
        Video video;
        video.captions = mode;
        const Scene s = make_chapter(spec, video, kMetrics)->scene_at(5);
        // Burned, it is the frame's lowest line: the caption band under the picture.
        CHECK((lowest_line(s) == Lines{"Every parameter costs memory."}) ==
              (mode == Captions::burn));
    }
}

TEST_CASE("a stretched chapter shows at twice the length what a tail one shows at once",
          "[chapters]") {
    ChapterSpec tail = bytes_spec(), stretched = bytes_spec();
    tail.beats.clear();
    tail.duration = 2 * find_kind("bytes_per_parameter")->default_duration;
    stretched.beats.clear();
    stretched.duration = tail.duration;
    stretched.stretch = true;
    const Video video;
    const auto a = make_chapter(tail, video, kMetrics),
               b = make_chapter(stretched, video, kMetrics);
    const double early = find_kind("bytes_per_parameter")->default_duration / 3;
    CHECK(b->scene_at(2 * early) == a->scene_at(early));
    CHECK(b->scene_at(early) != a->scene_at(early));
}
