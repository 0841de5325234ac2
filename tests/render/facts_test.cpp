// The article page's facts for every chapter kind, as each kind declares them (KindInfo::facts):
// every row is the figure `numbers --format json` prints under its key for the configuration on
// screen, every kind that draws engine figures has rows and formulas, and the formulas' MathML
// holds what they say.
#include "render/page/facts.hpp"

#include <sstream>

#include "render/inputs/numbers_json.hpp"
#include "render/inputs/storyboard_inputs.hpp"
#include "story/chapter/chapter.hpp"
#include "story/text/format.hpp"
#include "story/uses/explore.hpp"
#include "tests/catch.hpp"
#include "tests/render/markup.hpp"

namespace {

const nlohmann::ordered_json& at_key(const nlohmann::ordered_json& report, const std::string& key) {
    const nlohmann::ordered_json* j = &report;
    std::istringstream parts(key);
    for (std::string part; std::getline(parts, part, '.');) {
        INFO(key);
        REQUIRE(j->contains(part));
        j = &j->at(part);
    }
    return *j;
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

// The configuration on screen at the kind's first golden in its storyboard.
engine::Config golden_config(const story::KindInfo& kind) {
    std::ostringstream errors;
    const auto board = render::load_storyboard(
        std::string(SHARDREEL_SOURCE_DIR) + "/tests/storyboards/good/kind_" + kind.name + ".yaml",
        errors);
    INFO(errors.str());
    REQUIRE(board);
    for (const story::ChapterSpec& c : board->chapters)
        if (c.kind == kind.name)
            return story::config_at(c, kind.goldens.at(0).at, board->video.fps);
    FAIL("no chapter of kind " << kind.name);
    return {};
}

}  // namespace

TEST_CASE("every kind's facts are the engine's figures under their numbers keys", "[page]") {
    const story::Locale& en = story::Locale::english();
    for (const story::KindInfo& kind : story::chapter_kinds()) {
        INFO(kind.name);
        const engine::Config config = golden_config(kind);
        const render::Facts facts = render::chapter_facts(kind.name, config, en);
        if (kind.name == "title") {  // draws no engine figure
            CHECK(facts.stats.empty());
            CHECK(facts.maths.empty());
            continue;
        }
        CHECK(facts.stats.size() >= 3);
        CHECK(count(facts.maths, "<div class=\"formula\">") >= 1);
        // Three lines a formula: symbols, = values, = result.
        CHECK(count(facts.maths, "<math ") == 3 * count(facts.maths, "<div class=\"formula\">"));
        const engine::Config shown = kind.facts.shown ? kind.facts.shown(config) : config;
        const auto json = render::report_json(engine::analyze(shown));
        REQUIRE(facts.stats.size() == kind.facts.rows.size());
        for (std::size_t i = 0; i < facts.stats.size(); ++i) {
            const render::Stat& s = facts.stats[i];
            INFO(s.key);
            CHECK(s.key == kind.facts.rows[i].key);
            CHECK(s.value == at_key(json, s.key));
            CHECK(s.label == kind.facts.rows[i].label);
            CHECK_FALSE(s.text.empty());
        }
    }
}

TEST_CASE("a memory formula adds up to the memory row, and plan's figures are its winner's",
          "[page]") {
    const story::Locale& en = story::Locale::english();
    const story::KindInfo& zero = *story::find_kind("zero_stages");
    const engine::Config config = golden_config(zero);
    const engine::Report r = engine::analyze(config);
    const render::Facts facts = render::chapter_facts("zero_stages", config, en);
    const std::string total = story::format_bytes(r.per_gpu.total.value, en);
    // W + G + O + A, then each with its figure, then the total.
    const auto bytes = [&](const engine::Bytes& b) { return story::format_bytes(b.value, en); };
    const std::vector<render_test::Element> maths = render_test::elements(facts.maths, "math");
    REQUIRE(maths.size() == 3);
    CHECK(maths[0].text() == "W+G+O+A");
    CHECK(render_test::texts(maths[1].inner, "mn") ==
          std::vector<std::string>{bytes(r.per_gpu.weights), bytes(r.per_gpu.gradients),
                                   bytes(r.per_gpu.optimizer), bytes(r.per_gpu.activations)});
    CHECK(maths[2].text() == "=" + total);

    const story::KindInfo& plan = *story::find_kind("plan");
    const engine::Config asked = golden_config(plan);
    const render::Facts planned = render::chapter_facts("plan", asked, en);
    const engine::Config winner = plan.facts.shown(asked);
    CHECK_FALSE(winner == asked);
    REQUIRE(planned.stats.at(0).key == std::string("layout.dp"));
    CHECK(planned.stats.at(0).value == engine::analyze(winner).layout.dp());
}

TEST_CASE("step_memory's facts give the peak and whether it fits only from the line naming it",
          "[page]") {
    const story::Locale& en = story::Locale::english();
    const story::KindInfo& kind = *story::find_kind("step_memory");
    const engine::Config config = golden_config(kind);
    const engine::PerGpu g = engine::analyze(config).per_gpu;
    const auto row = [](const render::Facts& f, const std::string& key) {
        const auto it = std::find_if(f.stats.begin(), f.stats.end(),
                                     [&](const render::Stat& s) { return s.key == key; });
        REQUIRE(it != f.stats.end());
        return *it;
    };
    // Before: the figure on paper as drawn, the verdict "—", one formula (the figure on paper's).
    const render::Facts before = render::chapter_facts("step_memory", config, en, true, false);
    CHECK(row(before, "per_gpu.total_bytes").text == story::format_bytes(g.total.value, en));
    CHECK(row(before, "per_gpu.fits").text == "—");
    CHECK(row(before, "per_gpu.fits").value.is_null());
    const std::string peak = story::format_bytes(g.expected.total.value, en);
    CHECK(before.maths.find(peak) == std::string::npos);
    // From the peak's line: the verdict and the peak's formula, its total the expected peak.
    const render::Facts after = render::chapter_facts("step_memory", config, en, true, true);
    CHECK(row(after, "per_gpu.fits").value == (g.expected.total <= g.capacity));
    const std::vector<render_test::Element> maths = render_test::elements(after.maths, "math");
    REQUIRE(maths.size() == render_test::elements(before.maths, "math").size() + 3);
    CHECK(maths.back().text() == "=" + peak);
    // Its six terms in two rows of three, each shown (a row past the box hid the last term), the
    // second opening with "+"; the figure on paper's four stay on one row.
    const std::string values = maths[maths.size() - 2].inner;
    const std::vector<render_test::Element> rows = render_test::elements(values, "mtr");
    REQUIRE(rows.size() == 2);
    CHECK(render_test::texts(rows[0].inner, "mn").size() == 3);
    CHECK(render_test::texts(rows[1].inner, "mn").size() == 3);
    CHECK(rows[1].text().rfind("+", 0) == 0);
    const engine::PeakTerms& e = g.expected.first.terms;
    CHECK(render_test::texts(values, "mn").back() == story::format_bytes(e.context.value, en));
    CHECK(render_test::elements(before.maths, "mtr").empty());
}
