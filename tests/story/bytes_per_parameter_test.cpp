// bytes_per_parameter while the model grows: the "N x 80 GB" line never names more cards than
// the grid shows, and counts from the engine's figure before the `set:` to the one after it.
#include <algorithm>
#include <catch2/catch.hpp>
#include <regex>
#include <string>

#include "chapter_fixture.hpp"
#include "engine/report.hpp"

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
    const Timeline timeline(spec);
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
