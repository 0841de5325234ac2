// Storyboard loading: the good fixture, inheritance of defaults, the flat settings, and every
// broken storyboard in tests/storyboards/bad/ with its exact diagnostics.
#include "story/load.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "story/chapter.hpp"
#include "story/limits.hpp"
#include "story/settings.hpp"
#include "story/timed.hpp"
#include "tests/story/expectations.hpp"

namespace {

const std::string kSource = SHARDREEL_SOURCE_DIR;

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream buf;
    buf << in.rdbuf();
    return buf.str();
}

story::Storyboard load_ok(const std::string& text) {
    story::Diagnostics diags;
    auto sb = story::parse_storyboard(text, "test.yaml", diags);
    INFO(diags.format());
    REQUIRE(sb);
    return *sb;
}

std::string errors_of(const std::string& text) {
    story::Diagnostics diags;
    auto sb = story::parse_storyboard(text, "test.yaml", diags);
    CHECK_FALSE(sb);
    return diags.format();
}

// As the commands read it: parsed, the reading estimates for speech, timed.
story::Storyboard timed_ok(const std::string& text) {
    story::Diagnostics diags;
    std::vector<story::Diagnostic> warnings;
    auto sb = story::load_timed(text, "test.yaml", diags, warnings);
    INFO(story::format_diagnostics(diags, warnings));
    REQUIRE(sb);
    return *sb;
}

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

TEST_CASE("a link given beside a gpu overrides the preset's, in either order") {
    const auto sb = load_ok(R"(shardreel: 1
defaults:
  cluster: {network: 100GB/s, gpu: a100-sxm-80gb}
chapters:
  - {id: a, kind: title}
)");
    CHECK(sb.chapters[0].config.cluster.network.value == 100e9);
    CHECK(sb.chapters[0].config.cluster.nvlink.value == 600e9);
}

TEST_CASE("a model given as a map fills kv_heads, ffn and vocab") {
    const auto sb = load_ok(R"(shardreel: 1
defaults:
  model: {name: toy, params: 1.5B, layers: 24, hidden: 2048, heads: 16}
chapters:
  - {id: a, kind: title}
)");
    const engine::ModelSpec& m = sb.chapters[0].config.model;
    CHECK(m.name == "toy");
    CHECK(m.params == 1.5e9);
    CHECK(m.layers == 24);
    CHECK(m.hidden == 2048);
    CHECK(m.heads == 16);
    CHECK(m.kv_heads == 16);
    CHECK(m.ffn == 8192);
    CHECK(m.vocab == 32000);
}

TEST_CASE("durations and beat times accept seconds, milliseconds and frames; timing sorts") {
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

TEST_CASE("apply_setting parses each flat name onto the config") {
    engine::Config c = story::default_config();
    CHECK(c.layout == engine::Parallel{8, 1, 1, 0});
    CHECK_FALSE(story::apply_setting(c, "precision", "fp8"));
    CHECK(c.training.precision == engine::Precision::fp8_mixed);
    CHECK_FALSE(story::apply_setting(c, "flash_attention", "off"));
    CHECK_FALSE(c.training.flash_attention);
    CHECK_FALSE(story::apply_setting(c, "schedule", "interleaved"));
    CHECK(c.training.schedule == engine::Schedule::interleaved);
    CHECK_FALSE(story::apply_setting(c, "nvlink", "450GB/s"));
    CHECK(c.cluster.nvlink.value == 450e9);
    // A new gpu brings its own links.
    CHECK_FALSE(story::apply_setting(c, "gpu", "a100-sxm-80gb"));
    CHECK(c.cluster.nvlink.value == 600e9);
    CHECK(c.cluster.network.value == 25e9);
    CHECK_FALSE(story::apply_setting(c, "nodes", "4"));
    CHECK(c.layout.gpus == 32);
    CHECK_FALSE(story::apply_setting(c, "gpus", "16"));
    CHECK_FALSE(story::apply_setting(c, "nodes", "8"));
    CHECK(c.layout.gpus == 16);  // set explicitly: no longer follows the cluster
    CHECK_FALSE(story::apply_setting(c, "model", "175B"));
    CHECK(c.model.params == 175e9);
}

TEST_CASE("apply_setting rejects bad values and leaves the config unchanged") {
    const engine::Config before = story::default_config();
    engine::Config c = before;
    using Opt = std::optional<std::string>;
    CHECK(story::apply_setting(c, "microbatches", "8") ==
          Opt("unknown parameter 'microbatches' (did you mean 'micro_batches'?)"));
    CHECK(story::apply_setting(c, "tp", "four") == Opt("expected a number for 'tp', got 'four'"));
    CHECK(story::apply_setting(c, "micro_batches", "5000") ==
          Opt("'micro_batches' must be between 1 and 4096, got 5000"));
    CHECK(story::apply_setting(c, "recompute", "some") ==
          Opt("unknown recompute 'some' (expected none, selective or full)"));
    CHECK(story::apply_setting(c, "gpu", "h200-sxm-80gb") ==
          Opt("unknown gpu 'h200-sxm-80gb' (did you mean 'h100-sxm-80gb'?)"));
    CHECK(story::apply_setting(c, "network", "50GB") ==
          Opt("cannot parse '50GB' as a bandwidth (expected e.g. 900GB/s or 400Gb/s)"));
    CHECK(story::apply_setting(c, "network", "0GB/s") ==
          Opt("bandwidth must be positive, got '0GB/s'"));
    CHECK(story::apply_setting(c, "nodes", "65536") ==
          Opt("gpus_per_node x nodes = 524288 exceeds 65536 GPUs"));
    CHECK(story::apply_setting(c, "model", "5") ==
          Opt("model size must be between 1M and 1000T parameters, got '5'"));
    CHECK(c == before);
}

TEST_CASE("setting_names lists every flat name") {
    CHECK(story::setting_names() == std::vector<std::string>{"model",
                                                             "gpu",
                                                             "precision",
                                                             "grad_dtype",
                                                             "seq_len",
                                                             "micro_batch",
                                                             "micro_batches",
                                                             "recompute",
                                                             "flash_attention",
                                                             "sequence_parallel",
                                                             "schedule",
                                                             "chunks",
                                                             "gpus",
                                                             "tp",
                                                             "pp",
                                                             "zero",
                                                             "gpus_per_node",
                                                             "nodes",
                                                             "nvlink",
                                                             "network"});
}

TEST_CASE("flags take every YAML 1.1 boolean, captions its false ones as off") {
    const auto flash = [](std::string_view word) {
        return load_ok("shardreel: 1\ndefaults: {training: {flash_attention: " + std::string(word) +
                       "}}\nchapters: [{id: a, kind: title}]\n")
            .defaults.training.flash_attention;
    };
    const auto captions = [](std::string_view word) {
        return load_ok("shardreel: 1\nvideo: {captions: " + std::string(word) +
                       "}\nchapters: [{id: a, kind: title}]\n")
            .video.captions;
    };
    for (std::string_view w : story::limits::kTrueWords) {
        INFO(w);
        CHECK(flash(w));
        CHECK(story::parse_flag(w) == true);
    }
    for (std::string_view w : story::limits::kFalseWords) {
        INFO(w);
        CHECK_FALSE(flash(w));
        CHECK(captions(w) == story::Captions::off);
    }
    CHECK(story::parse_flag("maybe") == std::nullopt);
    CHECK(story::parse_flag("yES") == std::nullopt);
    CHECK(errors_of("shardreel: 1\nvideo: {captions: true}\nchapters: [{id: a, kind: title}]\n") ==
          "test.yaml:2:19: error: unknown captions 'true' (expected burn, track or off)\n");
}

TEST_CASE("the YAML 1.1 fixture reads its booleans as flags and its text as text") {
    const std::string path = kSource + "/tests/storyboards/good/yaml11_booleans.yaml";
    const story::Storyboard sb = load_ok(slurp(path));
    CHECK(sb.title == "Yes");
    CHECK(sb.video.captions == story::Captions::off);
    CHECK(sb.defaults.training.flash_attention);
    CHECK_FALSE(sb.defaults.training.sequence_parallel);
    REQUIRE(sb.chapters.size() == 1);
    CHECK(sb.chapters[0].title == "On");
    REQUIRE(sb.chapters[0].beats.size() == 2);
    CHECK(sb.chapters[0].beats[0].say == "No");
    CHECK(sb.chapters[0].beats[1].set ==
          std::vector<story::Setting>{{"flash_attention", "false", {19, 15}, {19, 32}},
                                      {"sequence_parallel", "ON", {19, 39}, {19, 58}}});
}
