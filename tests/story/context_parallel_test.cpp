// context_parallel: the attention work per GPU, the chunks each GPU's queries hold, activations and
// key/value bytes read out are the engine's for the configuration showing, before and after each
// `set:` (the split, cp, the exchange); a context-parallel group wider than it draws is refused.
#include "engine/context_parallel.hpp"

#include <cmath>
#include <regex>
#include <set>

#include "engine/report.hpp"
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

// The "N blocks" labels, top down: one per GPU's work bar.
Lines blocks(const Scene& s) {
    std::vector<on_screen::Shown> bars;
    for (const on_screen::Shown& t : on_screen::shown(s))
        if (std::regex_match(t.text, std::regex("[0-9,]+ blocks"))) bars.push_back(t);
    std::sort(bars.begin(), bars.end(), [](auto& a, auto& b) { return a.top < b.top; });
    Lines out;
    for (const auto& b : bars) out.push_back(b.text);
    return out;
}

Lines engine_blocks(const engine::Config& c) {
    Lines out;
    for (double w : engine::cp_attention(c).work)
        out.push_back(format_int(std::llround(w)) + " blocks");
    return out;
}

void check_stats(const Scene& s, const engine::Config& c) {
    const engine::Report r = engine::analyze(c);
    CHECK(stat(s, "Per card") == chapter_test::per_card(r));
    CHECK(stat(s, "Activations") == Lines{format_bytes(r.per_gpu.activations.value)});
    CHECK(stat(s, "K, V / step") ==
          Lines{format_bytes(r.comm.cp_per_gpu.value), format_time(r.comm.cp_time.value)});
}

const std::string kQueries = "Queries stay, K and V travel",
                  kMask =
                      "Attention: queries down, "
                      "keys across",
                  kWork = "Attention work per GPU, in blocks";

// Down the queries' column each GPU's card, in rank order, names the two chunks its queries hold
// as the engine splits them; `ring` stands at the column's foot.
void check_queries(const Scene& s, const engine::Config& c, const std::string& ring) {
    const std::vector<Lines> rows = on_screen::rows_under(s, kQueries);
    REQUIRE(rows.size() == static_cast<std::size_t>(c.layout.cp) + 1);
    for (int r = 0; r < c.layout.cp; ++r) {
        const auto q = engine::cp_chunks(r, c.layout.cp, c.layout.cp_split);
        REQUIRE(rows[r].size() >= 2);
        CHECK(Lines(rows[r].begin(), rows[r].begin() + 2) ==
              Lines{"GPU " + std::to_string(r),
                    "Q " + std::to_string(q[0]) + " + " + std::to_string(q[1])});
    }
    CHECK(rows.back() == Lines{ring});
}

// The note at the foot of a column.
Lines foot(const Scene& s, const std::string& heading) {
    const std::vector<Lines> rows = on_screen::rows_under(s, heading);
    return rows.empty() ? Lines{"(nothing under " + heading + ")"} : rows.back();
}

}  // namespace

TEST_CASE("context_parallel reads out the engine's work per GPU, activations and K/V bytes",
          "[chapters][context]") {
    const ChapterSpec spec = load_spec("kind_context_parallel.yaml", "long");
    const auto chapter = make_chapter(spec, Video{}, kMetrics);
    engine::Config c = spec.config;
    REQUIRE(c.layout.cp == 4);
    REQUIRE(c.layout.cp_split == engine::CpSplit::naive);
    REQUIRE(c.layout.cp_mode == engine::CpMode::ring);

    // cp 4, naive, ring: GPU 3 has seven times GPU 0's work, as the caption says.
    const Scene at10 = chapter->scene_at(10);
    CHECK(blocks(at10) == Lines{"2 blocks", "6 blocks", "10 blocks", "14 blocks"});
    CHECK(blocks(at10) == engine_blocks(c));
    check_stats(at10, c);
    check_queries(at10, c, "Ring: handed on 3 times");
    CHECK(foot(at10, kMask) == Lines{"131,072 tokens in 8 chunks of 16,384"});
    CHECK(on_screen::count(at10, "GPU 0") == 3);  // two query rows and its card

    // Halfway through the split's morph the bars slide, but each count is one state's.
    const Lines mid = blocks(chapter->scene_at(14.75));
    REQUIRE(mid.size() == 4);
    CHECK((mid[0] == "2 blocks" || mid[0] == "8 blocks"));

    // Balanced: every GPU the same work; the bytes and memory do not move with the split.
    c.layout.cp_split = engine::CpSplit::balanced;
    const Scene at18 = chapter->scene_at(18);
    CHECK(blocks(at18) == Lines(4, "8 blocks"));
    CHECK(blocks(at18) == engine_blocks(c));
    check_stats(at18, c);
    check_queries(at18, c, "Ring: handed on 3 times");
    CHECK(foot(at18, kWork) == Lines{"Balanced: GPU r holds r and 7-r"});

    // cp 8: activations per GPU halve, the ring hands on seven times.
    const engine::Config cp4 = c;
    c.layout.cp = 8;
    const Scene at26 = chapter->scene_at(26);
    CHECK(blocks(at26) == engine_blocks(c));
    CHECK(blocks(at26).size() == 8);
    check_stats(at26, c);
    check_queries(at26, c, "Ring: handed on 7 times");
    CHECK(engine::analyze(c).per_gpu.activations == engine::analyze(cp4).per_gpu.activations / 2);
    CHECK(foot(at26, kMask) == Lines{"131,072 tokens in 16 chunks of 8,192"});
    // Through the change, whatever is drawn of the note (fading out or in) multiplies out.
    const std::regex kNote("[0-9,]+ tokens in [0-9]+ chunks of [0-9,]+");
    std::set<std::string> notes;
    for (double t = 21; t <= 23.01; t += 0.1)
        for (const PlacedText& p : texts_of(chapter->scene_at(t)))
            if (p.opacity > 0 && std::regex_match(p.text.text, kNote)) notes.insert(p.text.text);
    CHECK(notes == std::set<std::string>{"131,072 tokens in 16 chunks of 8,192",
                                         "131,072 tokens in 8 chunks of 16,384"});

    // All-gather: two chunks' worth of traffic per hand-on where the ring has three.
    const engine::Config ring = c;
    c.layout.cp_mode = engine::CpMode::allgather;
    const Scene at33 = chapter->scene_at(33);
    check_stats(at33, c);
    CHECK(foot(at33, kQueries) == Lines{"All-gather: all K, V at once"});
    CHECK(engine::analyze(c).comm.cp_per_gpu.value ==
          Approx(engine::analyze(ring).comm.cp_per_gpu.value * 2 / 3));
}

TEST_CASE("context_parallel fills the blocks a GPU can compute as keys and values arrive",
          "[chapters][context]") {
    const ChapterSpec spec = load_spec("kind_context_parallel.yaml", "long");
    const auto chapter = make_chapter(spec, Video{}, kMetrics);
    // At step 0 every GPU holds its own keys and values (its chip names itself); after the first
    // hand-on GPU 0 holds GPU 3's, round the ring, and GPU 1 holds GPU 0's.
    const Scene own = chapter->scene_at(2.6);  // the exchange starts at 2 s, a step is 1.5 s
    for (int r = 0; r < 4; ++r)
        CHECK(on_screen::beside(own, "Q " + std::to_string(2 * r) + " + " +
                                         std::to_string(2 * r + 1)) == std::to_string(r));
    const Scene step1 = chapter->scene_at(2 + 1.5 + 1.0);
    CHECK(on_screen::beside(step1, "Q 0 + 1") == "3");
    CHECK(on_screen::beside(step1, "Q 2 + 3") == "0");
    // All-gathered (after 28-29.5 s; 35.3 s is 0.8 s into step 1 of a pass): every GPU holds
    // everyone's.
    const Scene gathered = chapter->scene_at(35.3);
    CHECK(on_screen::count(gathered, "all") == 8);
}

TEST_CASE("context_parallel refuses a group wider than it draws", "[chapters][context]") {
    const KindInfo* kind = find_kind("context_parallel");
    REQUIRE(kind != nullptr);
    REQUIRE(kind->cannot_draw != nullptr);
    const ChapterSpec spec = load_spec("kind_context_parallel.yaml", "long");
    CHECK(config_problems(spec.config, kind).empty());
    engine::Config wide = spec.config;
    wide.layout.gpus = 16;
    wide.cluster.nodes = 2;
    wide.layout.cp = 16;
    CHECK(kind->cannot_draw(wide) ==
          "context_parallel draws at most 8 GPUs in a context-parallel group, got cp 16");
    wide.layout.cp = 8;
    CHECK_FALSE(kind->cannot_draw(wide));
}
