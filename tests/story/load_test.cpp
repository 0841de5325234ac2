// Storyboard loading: the good fixture, inheritance of defaults, the flat settings, and every
// broken storyboard in tests/storyboards/bad/ with its exact diagnostics.
#include "story/load.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/presets.hpp"
#include "story/chapter.hpp"
#include "story/limits.hpp"
#include "story/settings.hpp"
#include "story/timed.hpp"
#include "tests/story/expectations.hpp"

namespace {

const std::string kSource = SHARDREEL_SOURCE_DIR;

using story_test::slurp;

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

TEST_CASE("a model map with experts and top_k is a mixture of experts: Mixtral from its shape") {
    const auto sb = load_ok(R"(shardreel: 1
defaults:
  model: {name: moe, layers: 32, hidden: 4096, heads: 32, kv_heads: 8, ffn: 14336,
          experts: 8, top_k: 2}
chapters:
  - {id: a, kind: title}
)");
    const engine::ModelSpec& m = sb.chapters[0].config.model;
    CHECK(m.experts == 8);
    CHECK(m.top_k == 2);
    // Jiang et al. 2024: 46.7B parameters, 12.9B used per token (the preset's published counts).
    CHECK(m.params == engine::find_model("mixtral-8x7b")->params);
    CHECK(std::round(m.params / 1e8) == 467);
}

TEST_CASE("parallel: takes ep, cp, cp_mode, shard_group and offload - training: capacity_factor") {
    const auto sb = load_ok(R"(shardreel: 1
defaults:
  model: mixtral-8x7b
  cluster: {nodes: 2}
  parallel: {ep: 4, cp: 2, cp_mode: ring, zero: 3, offload: optimizer+params}
  training: {capacity_factor: 1.25}
chapters:
  - {id: a, kind: title}
)");
    const engine::Config& c = sb.chapters[0].config;
    CHECK(c.layout.ep == 4);
    CHECK(c.layout.cp == 2);
    CHECK(c.layout.dp() == 8);
    CHECK(c.layout.cp_mode == engine::CpMode::ring);
    CHECK(c.layout.offload == engine::Offload::optimizer_params);
    CHECK(c.training.capacity_factor == 1.25);
    const auto hybrid = load_ok(R"(shardreel: 1
defaults:
  cluster: {nodes: 2}
  parallel: {zero: 3, shard_group: 8}
chapters:
  - {id: a, kind: title}
)");
    CHECK(hybrid.chapters[0].config.layout.shard_group == 8);
    CHECK(errors_of(R"(shardreel: 1
defaults:
  parallel: {cp_mode: spiral}
chapters:
  - {id: a, kind: title}
)")
              .find("cp_mode") != std::string::npos);
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

TEST_CASE("setting_names lists every flat name, in the table's order") {
    std::vector<std::string> names;
    for (const story::SettingSpec& s : story::settings()) names.push_back(s.name);
    CHECK(story::setting_names() == names);
    CHECK(names.size() == 34);
    // The order the sections and flags apply them in: a gpu before its links, the cluster's
    // size before gpus.
    const auto at = [&](const char* n) { return std::ranges::find(names, n) - names.begin(); };
    CHECK(at("gpu") < at("nvlink"));
    CHECK(at("gpu") < at("network"));
    CHECK(at("nodes") < at("gpus"));
    CHECK(at("gpus_per_node") < at("gpus"));
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

TEST_CASE("narration is off, a voice or a map, and a chapter overrides it field by field") {
    const auto sb = load_ok(R"(shardreel: 1
video:
  narration: {voice: "festival:cmu_us_slt_arctic_hts", wpm: 160, gap: 0.5s, tail: 2s}
  music: music/bed.flac
  music_level: -18dB
chapters:
  - {id: a, kind: title}
  - {id: b, kind: title, narration: off}
  - {id: c, kind: title, narration: "espeak-ng:en-gb"}
  - id: d
    kind: title
    narration: {voice: recorded, takes: takes, tail: 1.5s}
  - {id: e, kind: title, narration: false}
)");
    using story::VoiceEngine;
    const story::Narration& film = sb.video.narration;
    CHECK(film == story::Narration{VoiceEngine::festival, "cmu_us_slt_arctic_hts", 160, "", 0.5, 2,
                                   story::SourcePos{3, 22}});
    CHECK(sb.video.music == story::Music{"music/bed.flac", -18, story::SourcePos{4, 10}});
    REQUIRE(sb.chapters.size() == 5);
    CHECK(sb.chapters[0].narration == film);
    story::Narration b = film;
    b.engine = VoiceEngine::off, b.voice = "", b.pos = {8, 37};
    CHECK(sb.chapters[1].narration == b);
    CHECK(sb.chapters[2].narration ==
          story::Narration{VoiceEngine::espeak, "en-gb", 160, "", 0.5, 2, {9, 37}});
    CHECK(sb.chapters[3].narration ==
          story::Narration{VoiceEngine::recorded, "", 160, "takes", 0.5, 1.5, {12, 24}});
    CHECK(sb.chapters[4].narration.engine == VoiceEngine::off);
    CHECK(load_ok("shardreel: 1\nvideo: {music_level: -6}\nchapters: [{id: a, kind: title}]\n")
              .video.music.level == -6);
}

TEST_CASE("duration: auto and fit: stretch are read - the duration waits for timing") {
    const auto sb = load_ok(R"(shardreel: 1
chapters:
  - id: a
    kind: bytes_per_parameter
    duration: auto
    fit: stretch
    beats: [{at: 0s, say: Hello.}]
  - {id: b, kind: title, duration: 3s, fit: tail}
)");
    CHECK(sb.chapters[0].auto_duration);
    CHECK(sb.chapters[0].stretch);
    CHECK(sb.chapters[0].duration == story::find_kind("bytes_per_parameter")->default_duration);
    CHECK_FALSE(sb.chapters[1].auto_duration);
    CHECK_FALSE(sb.chapters[1].stretch);
    CHECK(timed_ok(R"(shardreel: 1
chapters:
  - id: a
    kind: bytes_per_parameter
    duration: auto
    beats: [{at: 0s, say: Hello.}]
)")
              .chapters[0]
              .duration == 1 + 1);  // the estimate (1 s at least) and the default tail
}

TEST_CASE("beats: at after and mark, gap, take, sound, and bookmarks taken out of say") {
    const auto sb = load_ok(R"(shardreel: 1
video: {narration: {voice: recorded, takes: takes}}
chapters:
  - id: a
    kind: bytes_per_parameter
    beats:
      - at: 0s
        say: "Scale to [[big]]70 billion [[end]]"
        take: takes/a-1.wav
      - at: mark:big
        set: {model: llama-2-70b}
        sound: sfx/click.wav
      - at: after
        gap: 0.8s
        say: "Then [[fp8]] fp8 halves it."
        take: takes/a-3.flac
      - {at: mark:fp8, say: "[[a]][[b]]Two at once."}
)");
    const auto& beats = sb.chapters[0].beats;
    REQUIRE(beats.size() == 4);
    CHECK(beats[0].rule == story::AtRule::fixed);
    CHECK(beats[0].say == "Scale to 70 billion");
    CHECK(beats[0].marks == std::vector<story::Bookmark>{{"big", 9}, {"end", 19}});
    CHECK(beats[0].say_pos == story::SourcePos{8, 14});
    CHECK(beats[0].take == "takes/a-1.wav");
    CHECK(beats[0].take_pos == story::SourcePos{9, 15});
    CHECK(beats[1].rule == story::AtRule::mark);
    CHECK(beats[1].mark == "big");
    CHECK(beats[1].at_pos == story::SourcePos{10, 13});
    CHECK(beats[1].sound == "sfx/click.wav");
    CHECK(beats[1].sound_pos == story::SourcePos{12, 16});
    CHECK(beats[1].set.size() == 1);
    CHECK(beats[2].rule == story::AtRule::after);
    CHECK(beats[2].gap == 0.8);
    CHECK(beats[2].say == "Then fp8 halves it.");
    CHECK(beats[2].marks == std::vector<story::Bookmark>{{"fp8", 5}});
    CHECK(beats[3].say == "Two at once.");
    CHECK(beats[3].marks == std::vector<story::Bookmark>{{"a", 0}, {"b", 0}});
    CHECK_FALSE(beats[3].gap);
}

TEST_CASE("narration and timing keys report their errors where they are written") {
    CHECK(errors_of(R"(shardreel: 1
video: {narration: "espeak:en-us", music_level: -80, music: ""}
chapters:
  - id: a
    kind: bytes_per_parameter
    duration: 3s
    narration: {voice: recordd, wpm: 50, gap: -1s, tail: 0.1s, speed: 2}
    fit: strech
    beats:
      - {at: 0s, say: "Hello [[Big]] world [[ok]]there [[ok]]again [[open"}
      - {at: "mark:okk", say: x}
      - {at: afer}
      - {at: "mark:later"}
      - {at: "mark:Later"}
      - {at: 2s, say: "now [[later]]x", take: ""}
      - {at: 2.5s, take: foo.wav, gap: 11}
      - {at: "mark:self", say: "[[self]]Me."}
  - id: b
    kind: bytes_per_parameter
    narration: recorded
    duration: auto
    beats:
      - {at: 1s}
      - {at: 2s, say: "unrecorded"}
  - {id: c, kind: title, duration: auto, narration: "festival:"}
  - {id: d, kind: title, narration: "recorded:me"}
  - {id: e, kind: title, narration: "en-us"}
)") == "test.yaml:2:20: error: unknown voice engine 'espeak' in 'espeak:en-us' (did you mean "
       "'espeak-ng'?)\n"
       "test.yaml:2:49: error: 'music_level' must be between -60dB and 0dB, got -80dB\n"
       "test.yaml:2:61: error: expected a file name for 'music', got nothing\n"
       "test.yaml:7:24: error: unknown voice 'recordd' (did you mean 'recorded'?)\n"
       "test.yaml:7:38: error: 'wpm' must be between 80 and 450, got 50\n"
       "test.yaml:7:47: error: cannot parse '-1s' as a time (expected e.g. 1.5s, 500ms or 45f)\n"
       "test.yaml:7:58: error: 'tail' must be between 0.5s and 10s, got 0.1s\n"
       "test.yaml:7:64: error: unknown key 'speed' in narration\n"
       "test.yaml:8:10: error: unknown fit 'strech' (did you mean 'stretch'?)\n"
       "test.yaml:10:23: error: bad bookmark '[[Big]]' in say: (names use a-z, 0-9, '_' and '-')\n"
       "test.yaml:10:23: error: unclosed bookmark '[[open' in say: (write [[name]] before a word)\n"
       "test.yaml:10:23: error: bookmark '[[ok]]' is already in chapter 'a' (on line 10)\n"
       "test.yaml:11:14: error: no bookmark 'okk' in an earlier beat of chapter 'a' (did you mean "
       "'ok'?)\n"
       "test.yaml:12:14: error: cannot parse 'afer' as a beat's start (did you mean 'after'?)\n"
       "test.yaml:13:14: error: bookmark 'later' is in a later beat (line 15), but a beat can "
       "start only on a bookmark of an earlier one\n"
       "test.yaml:14:14: error: bad bookmark name 'Later' in 'at: mark:Later' (names use a-z, 0-9, "
       "'_' and '-')\n"
       "test.yaml:15:47: error: expected a file name for 'take', got nothing\n"
       "test.yaml:16:26: error: take: needs a say: on its beat (the line it records)\n"
       "test.yaml:16:40: error: 'gap' must be between 0s and 10s, got 11s\n"
       "test.yaml:17:14: error: bookmark 'self' is in this beat's own line, but a beat can start "
       "only on a bookmark of an earlier one\n"
       "test.yaml:24:23: error: no recording for this line in chapter 'b': narration: recorded "
       "needs takes: FOLDER, or a take: on the beat\n"
       "test.yaml:25:36: error: duration: auto needs a beat with a say: (the chapter ends after "
       "its last line)\n"
       "test.yaml:25:53: error: voice 'festival:' needs a voice name after 'festival:' (e.g. "
       "espeak-ng:en-us, festival:cmu_us_slt_arctic_hts or open-jtalk:nitech-jp-atr503-m001)\n"
       "test.yaml:26:37: error: 'recorded' takes no voice name (the takes are the voice), got "
       "'recorded:me'\n"
       "test.yaml:27:37: error: unknown voice 'en-us' (expected espeak-ng:VOICE, festival:VOICE, "
       "open-jtalk:VOICE, recorded or off)\n");
}
