// bytes_per_parameter while the model grows: the "N x 80 GB" line never names more cards than
// the grid shows, and counts from the engine's figure before the `set:` to the one after it; a
// `set:` of the optimizer names it on its segment, with the engine's bytes and totals.
#include <algorithm>
#include <regex>
#include <string>

#include "chapter_fixture.hpp"
#include "engine/report.hpp"
#include "story/text/format.hpp"
#include "tests/catch.hpp"
#include "tests/story/on_screen.hpp"

using namespace story;

namespace {

// "14 × 80 GB H100 just to hold it" -> 14; -1 when the line is not on screen.
int cards_named(const Scene& s) {
    static const std::regex line("^([0-9,]+) × .* just to hold it$");
    for (const PlacedText& p : texts_of(s)) {
        std::smatch m;
        if (p.opacity > 0 && std::regex_match(p.text.text, m, line)) {
            std::string digits = m[1];
            std::erase(digits, ',');
            return std::stoi(digits);
        }
    }
    return -1;
}

int cards_drawn(const Scene& s) {
    static const std::regex name("^GPU [0-9]+$");
    int n = 0;
    for (const PlacedText& p : texts_of(s))
        if (p.opacity > 0 && std::regex_match(p.text.text, name)) ++n;
    return n;
}

}  // namespace

TEST_CASE("bytes_per_parameter: the cards named never outnumber the cards drawn mid-morph",
          "[chapters]") {
    const ChapterSpec spec = chapter_test::load_spec("kind_bytes_per_parameter.yaml");
    const auto chapter = make_chapter(spec, Video{}, chapter_test::kMetrics);
    const Timeline timeline(spec, Video{}.fps);
    REQUIRE(timeline.states().size() >= 2);
    const auto grow = std::find_if(spec.beats.begin(), spec.beats.end(),
                                   [](const Beat& b) { return !b.set.empty(); });
    REQUIRE(grow != spec.beats.end());
    const double start = grow->at, end = grow->at + grow->over;
    const int before = engine::analyze(timeline.states()[0]).gpus_to_hold_model_states;
    const int after = engine::analyze(timeline.states()[1]).gpus_to_hold_model_states;
    REQUIRE(after > before);
    CHECK(cards_named(chapter->scene_at(start)) == before);
    CHECK(cards_named(chapter->scene_at(end + 0.01)) == after);
    int last = before;
    for (double t = start; t <= end; t += 0.05) {
        const Scene s = chapter->scene_at(t);
        INFO("t = " << t);
        const int named = cards_named(s);
        CHECK(named <= cards_drawn(s));
        CHECK(named >= last);  // counts up, never back
        last = named;
    }
}

namespace {

// The optimizer segment's label (its name, what it holds) and bytes, and the totals, for c.
void check_optimizer(const Scene& s, const engine::Config& c, const std::string& holds) {
    const engine::Report r = engine::analyze(c);
    CHECK(on_screen::beside(s, "Optimizer state") ==
          format_bytes_per_param(r.bytes_per_param.optimizer));
    CHECK(on_screen::under(s, "Optimizer state") == holds);
    CHECK(on_screen::beside(s, "Total per parameter") ==
          format_bytes_per_param(r.bytes_per_param.total()));
    CHECK(on_screen::under(s, format_params(r.params) + " parameters × " +
                                  format_bytes_per_param(r.bytes_per_param.total()) + " = " +
                                  format_bytes(r.model_states.value)) ==
          "model state before a single activation");
    CHECK(on_screen::stat(s, "Model states") ==
          on_screen::Lines{format_bytes(r.model_states.value)});
}

}  // namespace

TEST_CASE("bytes_per_parameter: set: {optimizer: adam-8bit} morphs the optimizer's bytes",
          "[chapters]") {
    const ChapterSpec spec = chapter_test::load_spec("kind_bytes_per_parameter.yaml");
    const auto chapter = make_chapter(spec, Video{}, chapter_test::kMetrics);
    const Timeline timeline(spec, Video{}.fps);
    const engine::Config& adam = timeline.states()[timeline.states().size() - 2];
    const engine::Config& eight = timeline.states().back();
    REQUIRE(adam.training.optimizer == engine::Optimizer::adam);
    REQUIRE(eight.training.optimizer == engine::Optimizer::adam_8bit);
    REQUIRE(adam.training.precision == engine::Precision::fp8_mixed);

    // Adam before the beat at 23 s: fp32 master + two fp32 moments, 12 B.
    check_optimizer(chapter->scene_at(22.5), adam, "fp32 master + Adam m, v");
    CHECK(engine::analyze(adam).bytes_per_param.optimizer == 12);
    // 8-bit Adam after it (23-24.5 s): the moments in a byte each, 6 B with the master.
    check_optimizer(chapter->scene_at(27), eight, "fp32 master + 8-bit Adam m, v");
    CHECK(engine::analyze(eight).bytes_per_param.optimizer == 6);
    // Mid-morph the bytes count between the two.
    const std::string mid = on_screen::beside(chapter->scene_at(23.5), "Optimizer state");
    CHECK(mid.back() == 'B');
    CHECK(mid != "12 B");
    CHECK(mid != "6 B");
}
