// The step_memory chapter: the film's figure on paper beside the expected peak, every term of
// each the engine's, the chart's levels labelled with the same figures as the table and the stat
// panel, and the expected column only once the peak is shown.
#include <algorithm>

#include "engine/memory.hpp"
#include "story/scene/theme.hpp"
#include "story/text/format.hpp"
#include "tests/catch.hpp"
#include "tests/story/chapter_fixture.hpp"
#include "tests/story/on_screen.hpp"

using namespace story;
using on_screen::cell;
using on_screen::Lines;
using on_screen::stat;

namespace {
std::string gb(double bytes) { return format_bytes(bytes); }
}  // namespace

TEST_CASE("step_memory tabulates on paper and expected with the engine's terms", "[step]") {
    const ChapterSpec spec = chapter_test::load_spec("kind_step_memory.yaml");
    const auto chapter = make_chapter(spec, Video{}, chapter_test::kMetrics);
    const engine::PerGpu g = engine::per_gpu_memory(spec.config);
    const engine::PeakTerms& e = g.expected.first.terms;
    const Scene s = chapter->scene_at(26);

    CHECK(cell(s, "Model states", "on paper") == gb((g.weights + g.gradients + g.optimizer).value));
    CHECK(cell(s, "Activations", "on paper") == gb(g.activations.value));
    CHECK(cell(s, "Total", "on paper") == gb(g.total.value));
    CHECK(cell(s, "Model states", "expected") ==
          gb((e.weights + e.gradients + e.optimizer + e.grad_accum).value));
    CHECK(cell(s, "Activations", "expected") == gb(e.activations.value));
    CHECK(cell(s, "Logits and loss", "expected") == gb(e.logits.value));
    CHECK(cell(s, "Communication buffers", "expected") ==
          gb((e.dp_buckets + e.param_gather + e.tp_gather).value));
    CHECK(cell(s, "Allocator reserve", "expected") == gb(e.reserve.value));
    CHECK(cell(s, "CUDA and NCCL context", "expected") == gb(e.context.value));
    CHECK(cell(s, "Total", "expected") == gb(g.expected.total.value));
    // 7B, ZeRO-1 on 8 H100s: 56.8 GB on paper, 78.2 GB expected, 1.78 GB to spare.
    CHECK(gb(g.total.value) == "56.8" + std::string(kThinSpace) + "GB");
    CHECK(gb(g.expected.total.value) == "78.2" + std::string(kThinSpace) + "GB");
    CHECK(on_screen::count(s, "1.78" + std::string(kThinSpace) + "GB to spare on the card") == 1);

    // The panel and the chart's levels say the same.
    CHECK(stat(s, "On paper") == Lines{gb(g.total.value)});
    CHECK(stat(s, "Expected peak") == Lines{gb(g.expected.total.value)});
    CHECK(stat(s, "Capacity") == Lines{gb(g.capacity.value)});
    CHECK(on_screen::count(s, "peak " + gb(g.expected.total.value)) == 1);
    CHECK(on_screen::count(s, "on paper " + gb(g.total.value)) == 1);
    CHECK(on_screen::count(s, "capacity " + gb(g.capacity.value)) == 1);
}

TEST_CASE("step_memory shows the expected column only with the peak", "[step]") {
    const ChapterSpec spec = chapter_test::load_spec("kind_step_memory.yaml");
    const auto chapter = make_chapter(spec, Video{}, chapter_test::kMetrics);
    const Scene before = chapter->scene_at(20);
    CHECK(on_screen::count(before, "expected") == 0);
    CHECK(on_screen::count(before, "Logits and loss") == 0);
    CHECK(on_screen::count(before, "on paper") == 1);  // the column's heading
    CHECK(on_screen::count(chapter->scene_at(26), "Logits and loss") == 1);
}

namespace {
// The chart's bands, each with its opacity: every rectangle starting at the chart's left edge, the
// leftmost any rectangle of the scene starts at (the table's swatches start right of it).
std::vector<std::pair<Rect, double>> chart_bands(const Scene& s) {
    double left = 1e9;
    for (const Item& item : s.items)
        if (const Rect* r = std::get_if<Rect>(&item.shape)) left = std::min(left, r->x);
    std::vector<std::pair<Rect, double>> out;
    for (const Item& item : s.items)
        if (const Rect* r = std::get_if<Rect>(&item.shape); r && r->x == left)
            out.emplace_back(*r, item.opacity);
    return out;
}
// The chart's bands of one colour, hatched or not: their summed height in authoring pixels.
double band_height(const Scene& s, const Color& fill, bool hatched) {
    double h = 0;
    for (const auto& [r, opacity] : chart_bands(s))
        if (r.fill == fill && r.hatch.has_value() == hatched) h += r.h * opacity;
    return h;
}
}  // namespace

TEST_CASE("step_memory names the peak's extras only as the peak's line does", "[step]") {
    const ChapterSpec spec = chapter_test::load_spec("kind_step_memory.yaml");
    const auto chapter = make_chapter(spec, Video{}, chapter_test::kMetrics);
    const engine::PerGpu g = engine::per_gpu_memory(spec.config);
    const Palette& palette = story::palette(Video{}.theme);
    // Before: no figure for the peak, and nothing on the chart the figure on paper leaves out
    // (the allocator's reserve is the one hatched band); the chart climbs to about that figure.
    const Scene before = chapter->scene_at(20);
    CHECK(stat(before, "Expected peak") == Lines{"—"});
    CHECK(band_height(before, palette.panel, true) == 0);
    // From the peak's line on: its figure, and the reserve under the activations.
    const Scene after = chapter->scene_at(26);
    CHECK(stat(after, "Expected peak") == Lines{gb(g.expected.total.value)});
    CHECK(band_height(after, palette.panel, true) > 0);
}

TEST_CASE("step_memory labels its levels right of the chart, clear of its bands and peaks",
          "[step]") {
    const ChapterSpec spec = chapter_test::load_spec("kind_step_memory.yaml");
    const auto chapter = make_chapter(spec, Video{}, chapter_test::kMetrics);
    const Scene s = chapter->scene_at(26);
    // The chart's bands' right edges bound what it draws.
    double right = 0;
    for (const auto& [r, opacity] : chart_bands(s)) right = std::max(right, r.x + r.w);
    int labels = 0;
    for (const PlacedText& p : texts_of(s))
        for (const char* level : {"capacity ", "peak ", "on paper "})
            if (p.text.text.rfind(level, 0) == 0) {
                INFO(p.text.text);
                CHECK(p.text.align == Align::left);
                CHECK(p.text.x > right);
                ++labels;
            }
    CHECK(labels == 3);
}

TEST_CASE("step_memory's micro-batch names under the chart never run together", "[step]") {
    const ChapterSpec spec = chapter_test::load_spec("kind_step_memory.yaml");
    const auto chapter = make_chapter(spec, Video{}, chapter_test::kMetrics);
    const std::vector<PlacedText> texts = texts_of(chapter->scene_at(26));
    const auto first = std::find_if(texts.begin(), texts.end(), [](const PlacedText& p) {
        return p.text.text == "micro-batch 1";
    });
    REQUIRE(first != texts.end());
    std::vector<std::pair<double, double>> spans;  // each label's left and right edge
    for (const PlacedText& p : texts)
        if (p.text.y == first->text.y) {
            const double w = chapter_test::kMetrics.measure(p.text.text, p.text.style).advance;
            const double left = p.text.align == Align::center ? p.text.x - w / 2 : p.text.x;
            spans.emplace_back(left, left + w);
        }
    std::sort(spans.begin(), spans.end());
    CHECK(spans.size() == 4);  // the first named, then each span's name or number
    for (std::size_t i = 1; i < spans.size(); ++i)
        CHECK(spans[i].first - spans[i - 1].second >= 24);
}

TEST_CASE("step_memory names the logits and loss beside the first tip while they are spoken",
          "[step]") {
    const ChapterSpec spec = chapter_test::load_spec("kind_step_memory.yaml");
    const auto chapter = make_chapter(spec, Video{}, chapter_test::kMetrics);
    const engine::PerGpu g = engine::per_gpu_memory(spec.config);
    const std::string label = "logits and loss " + gb(g.expected.first.terms.logits.value);
    CHECK(on_screen::count(chapter->scene_at(8), label) == 0);   // the forward pass
    CHECK(on_screen::count(chapter->scene_at(11), label) == 1);  // the loss's line
    CHECK(on_screen::count(chapter->scene_at(14), label) == 0);  // the backward's
}

TEST_CASE("the default film's practice chapter quotes the engine's peak and its figure on paper",
          "[step][film]") {
    const Storyboard film =
        chapter_test::load_file(SHARDREEL_SOURCE_DIR "/storyboards/distributed-training.yaml");
    const auto it = std::find_if(film.chapters.begin(), film.chapters.end(),
                                 [](const ChapterSpec& c) { return c.id == "practice"; });
    REQUIRE(it != film.chapters.end());
    const engine::PerGpu g = engine::per_gpu_memory(it->config);
    const auto plain = [](std::string s) {  // a caption writes figures with an ordinary space
        const std::string thin = kThinSpace;
        for (std::size_t at; (at = s.find(thin)) != std::string::npos;)
            s.replace(at, thin.size(), " ");
        return s;
    };
    const std::string& line = it->beats.back().say;
    INFO(line);
    CHECK(line.find(plain(gb(g.expected.total.value)) + " against " +
                    format_sig3(g.total.value / 1e9) + " on paper") != std::string::npos);
    CHECK(g.expected.total < g.capacity);  // it fits, as the picture says
}
