// story/uses/explore: the page figure's moment, the configuration on screen, and explore: variants.
#include "story/uses/explore.hpp"

#include "story/load/timed.hpp"
#include "tests/catch.hpp"

namespace {

story::Storyboard loaded(const std::string& text) {
    story::Diagnostics diags;
    std::vector<story::Diagnostic> warnings;
    auto sb = story::load_timed(text, "explore.yaml", diags, warnings);
    INFO(diags.format());
    REQUIRE(sb);
    return *sb;
}

const char* kBoard = R"(shardreel: 1
video: {fps: 10, narration: off}
defaults: {parallel: {pp: 4}}
chapters:
  - id: bubble
    kind: pipeline_bubble
    duration: 4s
    explore: {micro_batches: [1, 2, 16], schedule: [1f1b, gpipe]}
    beats:
      - {at: 0s, say: First}
      - {at: 2s, set: {micro_batches: 16, pp: 2}, over: 1s, say: Second}
  - id: zero
    kind: zero_stages
    duration: 3s
    beats:
      - {at: 0s, say: One}
      - {at: 1s, set: {zero: 1}, over: 0.5s, say: Two, explore: {zero: [0, 2, 3]}}
      - {at: 2s, set: {zero: 2}}
)";

}  // namespace

TEST_CASE("explore: gives every combination, the first parameter slowest") {
    const auto sb = loaded(kBoard);
    const auto variants = story::explore_variants(sb.chapters[0]);
    REQUIRE(variants.size() == 6);
    CHECK(variants[0].index == std::vector<std::size_t>{0, 0});
    CHECK(variants[1].index == std::vector<std::size_t>{0, 1});
    CHECK(variants[5].index == std::vector<std::size_t>{2, 1});
    CHECK(variants[3].settings[0].value == "2");
    CHECK(variants[3].settings[1].value == "gpipe");
}

TEST_CASE("a chapter's explore: value holds from its start: beats no longer set it") {
    const auto sb = loaded(kBoard);
    const auto& spec = sb.chapters[0];
    const auto v = story::explore_variants(spec)[2];  // micro_batches 2, 1f1b
    CHECK(v.spec.config.training.micro_batches == 2);
    const auto at_end = story::config_at(v.spec, 4, 10);
    CHECK(at_end.training.micro_batches == 2);  // the beat's 16 is dropped
    CHECK(at_end.layout.pp == 2);               // what it sets beside stays
    // The chapter as written ends on 16 micro-batches: its variant is index 2 of them.
    CHECK(story::written_variant(spec, 4, 10) == std::vector<std::size_t>{2, 0});
    CHECK(story::written_variant(spec, 0.5, 10) == std::vector<std::size_t>{0, 0});  // 8: unlisted
}

TEST_CASE("a beat's explore: value is that beat's, later beats drop theirs, earlier keep") {
    const auto sb = loaded(kBoard);
    const auto& spec = sb.chapters[1];
    REQUIRE(spec.explore_beat == 2);
    const auto v = story::explore_variants(spec)[2];  // zero 3
    CHECK(story::config_at(v.spec, 0.5, 10).layout.zero == 0);
    CHECK(story::config_at(v.spec, 1.5, 10).layout.zero == 3);
    CHECK(story::config_at(v.spec, 2.9, 10).layout.zero ==
          3);  // the zero: 2 beat no longer sets it
    // The figure shows at the end of the exploring beat's morph (1 s + 0.5 s), on a frame.
    CHECK(story::figure_frame(spec, 30, 10) == 15);
    CHECK(story::words_at(spec, 1.5, 10) == "Two");
    // The words are the caption on screen: none before the first line's frame is the title.
    auto untitled = spec;
    untitled.title = "ZeRO";
    untitled.beats[0].at = 0.5;
    CHECK(story::words_at(untitled, 0.4, 10) == "ZeRO");
    CHECK(story::words_at(untitled, 0.5, 10) == "One");
    // A voiced line's caption ends 0.5 s after its speech; its words stay the figure's.
    auto voiced = untitled;
    voiced.narration.engine = story::VoiceEngine::espeak;
    voiced.beats[0].speech = story::Speech{0.2, {}};
    voiced.beats[1].speech = story::Speech{0.2, {}};  // "Two" at 1 s: its caption ends at 1.7 s
    CHECK(story::words_at(voiced, 2.5, 10) == "Two");
}

TEST_CASE("figure: picks the moment - end and the default are the last frame") {
    auto sb = loaded(kBoard);
    auto& spec = sb.chapters[0];
    CHECK(story::figure_frame(spec, 40, 10) == 39);
    spec.figure = 1.26;
    CHECK(story::figure_frame(spec, 40, 10) == 13);
    spec.figure = 1e9;
    CHECK(story::figure_frame(spec, 40, 10) == 39);
}
