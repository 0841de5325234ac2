// Storyboard loading: the good fixture, inheritance of defaults, times and video settings, errors
// sorted by position, and every broken storyboard in tests/storyboards/bad/ with its exact
// diagnostics. The configuration keys, flat settings, YAML booleans and narration have their own
// files (load_config_test, apply_setting_test, yaml_booleans_test, load_narration_test).
#include "story/load/load.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/presets.hpp"
#include "story/chapter/chapter.hpp"
#include "story/load/timed.hpp"
#include "story/storyboard/limits.hpp"
#include "story/storyboard/settings.hpp"
#include "tests/catch.hpp"
#include "tests/story/expectations.hpp"
#include "tests/story/load_fixture.hpp"

namespace {

const std::string kSource = SHARDREEL_SOURCE_DIR;

using story_test::errors_of;
using story_test::load_ok;
using story_test::slurp;
using story_test::timed_ok;

}  // namespace

TEST_CASE("the minimal storyboard loads with kind defaults and its beats") {
    const std::string path = kSource + "/tests/storyboards/good/minimal.yaml";
    story::Diagnostics diags;
    auto sb = story::parse_storyboard(slurp(path), path, diags);
    INFO(diags.format());
    REQUIRE(sb);
    CHECK(sb->title == "Minimal");
    CHECK(sb->video == story::Video{1280, 720, 30, story::ThemeName::dark, story::Captions::burn});
    REQUIRE(sb->chapters.size() == 2);
    const story::ChapterSpec& intro = sb->chapters[0];
    CHECK(intro.id == "intro");
    CHECK(intro.kind == "title");
    CHECK(intro.subtitle == "in two chapters");
    CHECK(intro.duration == story::find_kind("title")->default_duration);
    CHECK(intro.pos == story::SourcePos{10, 5});
    CHECK(intro.config.model.name == "llama-2-7b");
    CHECK(intro.config.training.seq_len == 2048);
    CHECK(intro.config.training.micro_batches == 8);

    const story::ChapterSpec& bytes = sb->chapters[1];
    CHECK(bytes.duration == 18);
    CHECK(bytes.config.model.name == "llama-2-70b");
    CHECK(bytes.config.training.seq_len == 2048);      // inherited
    CHECK(bytes.config.training.micro_batches == 16);  // overridden
    // The loader keeps the file's order; timing sorts (below).
    REQUIRE(bytes.beats.size() == 2);
    CHECK(bytes.beats[0].at == 8);
    CHECK(bytes.beats[0].over == 1.5);
    CHECK(bytes.beats[0].pos == story::SourcePos{21, 9});
    CHECK(bytes.beats[0].at_pos == story::SourcePos{21, 13});
    CHECK(bytes.beats[0].set_pos == story::SourcePos{22, 9});
    CHECK(bytes.beats[0].say_pos == story::SourcePos{24, 14});
    CHECK(bytes.beats[0].set ==
          std::vector<story::Setting>{
              {"precision", "fp8", story::SourcePos{22, 15}, story::SourcePos{22, 26}}});
    CHECK(bytes.beats[1].at == 0);
    CHECK(bytes.beats[1].say == "Training holds far more than the weights.");
    CHECK(bytes.beats[1].set.empty());
    CHECK_FALSE(bytes.beats[1].speech);  // filled by the voice or the estimate, then timed
    // A set: beat changes what is shown, never the chapter's starting configuration.
    CHECK(bytes.config.training.precision == engine::Precision::bf16_mixed);

    const story::Storyboard timed = timed_ok(slurp(path));
    const std::vector<story::Beat>& beats = timed.chapters[1].beats;
    REQUIRE(beats.size() == 2);
    CHECK(beats[0].say == "Training holds far more than the weights.");
    CHECK(beats[1].at == 8);
    CHECK(beats[0].speech == story::reading_estimate(beats[0]));
}

TEST_CASE("defaults are inherited and overridden key by key per chapter") {
    const auto sb = load_ok(R"(shardreel: 1
defaults:
  model: 70B
  training: {seq_len: 2048, micro_batches: 8, recompute: full}
  cluster: {gpu: a100-sxm-80gb, gpus_per_node: 4}
  parallel: {tp: 2}
chapters:
  - {id: plain, kind: title}
  - id: more-nodes
    kind: title
    training: {micro_batches: 16}
    cluster: {nodes: 3, network: 400Gb/s}
  - id: fixed-gpus
    kind: title
    cluster: {nodes: 2}
    parallel: {gpus: 4, pp: 2}
)");
    REQUIRE(sb.chapters.size() == 3);
    const engine::Config& plain = sb.chapters[0].config;
    CHECK(plain.model.params == 70e9);
    CHECK(plain.training.seq_len == 2048);
    CHECK(plain.training.micro_batches == 8);
    CHECK(plain.training.recompute == engine::Recompute::full);
    CHECK(plain.cluster.gpu.name == "a100-sxm-80gb");
    CHECK(plain.cluster.network.value == 25e9);  // from the gpu preset
    CHECK(plain.cluster.nvlink.value == 600e9);
    CHECK(plain.layout == engine::Parallel{4, 2, 1, 0});  // gpus follow 4 per node x 1 node

    const engine::Config& more = sb.chapters[1].config;
    CHECK(more.training.seq_len == 2048);
    CHECK(more.training.micro_batches == 16);
    CHECK(more.training.recompute == engine::Recompute::full);
    CHECK(more.cluster.network.value == 50e9);  // 400 Gb/s is 50 GB/s
    CHECK(more.cluster.nvlink.value == 600e9);
    CHECK(more.layout == engine::Parallel{12, 2, 1, 0});

    CHECK(sb.chapters[2].config.layout == engine::Parallel{4, 2, 2, 0});
}

TEST_CASE("durations and beat times accept seconds, milliseconds and frames - timing sorts") {
    const auto sb = timed_ok(R"(shardreel: 1
video: {fps: 24}
chapters:
  - id: a
    kind: bytes_per_parameter
    duration: 120f
    beats:
      - {at: 4500ms, say: last}
      - {at: 1, say: first}
      - {at: 48f, say: second}
  - {id: b, kind: title, duration: 2.5}
)");
    CHECK(sb.chapters[0].duration == 5);
    std::vector<double> at;
    for (const story::Beat& b : sb.chapters[0].beats) at.push_back(b.at);
    CHECK(at == std::vector<double>{1, 2, 4.5});
    CHECK(sb.chapters[0].beats[2].say == "last");
    CHECK(sb.chapters[1].duration == 2.5);
}

TEST_CASE("video settings are read, and default when absent") {
    CHECK(load_ok("shardreel: 1\nchapters: [{id: a, kind: title}]\n").video == story::Video{});
    const auto sb = load_ok(R"(shardreel: 1
video: {size: 3840x2160, fps: 60, theme: light, captions: track}
chapters: [{id: a, kind: title}]
)");
    CHECK(sb.video ==
          story::Video{3840, 2160, 60, story::ThemeName::light, story::Captions::track});
}

TEST_CASE("errors are all reported, sorted by position") {
    CHECK(errors_of(R"(shardreel: 1
chapters:
  - {id: b, kind: title, duration: -1s}
  - {id: a, kind: tittle}
video: {fps: 0}
)") == "test.yaml:3:36: error: cannot parse '-1s' as a time (expected e.g. 1.5s, 500ms or 45f)\n"
       "test.yaml:4:19: error: unknown chapter kind 'tittle' (did you mean 'title'?)\n"
       "test.yaml:5:14: error: 'fps' must be between 1 and 120, got 0\n");
}

TEST_CASE("every broken storyboard reports exactly its expected diagnostics") {
    int files = 0;
    for (const auto& entry :
         std::filesystem::directory_iterator(kSource + "/tests/storyboards/bad")) {
        if (entry.path().extension() != ".yaml") continue;
        const std::string path = entry.path().string(), text = slurp(path);
        const std::string expected = story_test::expected_diagnostics(text, path);
        INFO(path);
        REQUIRE_FALSE(expected.empty());
        story::Diagnostics diags;
        std::vector<story::Diagnostic> warnings;
        CHECK_FALSE(story::load_timed(text, path, diags, warnings));
        CHECK(story::format_diagnostics(diags, warnings) == expected);
        ++files;
    }
    CHECK(files >= 40);
}
