// The configuration a storyboard writes: a link beside a gpu preset, a model given as a map (dense
// or a mixture of experts), and the parallel: and training: keys.
#include <cmath>

#include "engine/presets.hpp"
#include "story/chapter/chapter.hpp"
#include "story/storyboard/limits.hpp"
#include "story/storyboard/settings.hpp"
#include "tests/catch.hpp"
#include "tests/story/load_fixture.hpp"

using story_test::errors_of;
using story_test::load_ok;

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

TEST_CASE("a model map's arch: gpt counts GPT-3's blocks, a misspelt one is named with a hint") {
    const auto sb = load_ok(R"(shardreel: 1
defaults:
  model: {name: gpt3, arch: gpt, layers: 96, hidden: 12288, heads: 96, vocab: 50257}
chapters:
  - {id: a, kind: title}
)");
    const engine::ModelSpec& m = sb.chapters[0].config.model;
    CHECK(m.arch == engine::Arch::gpt);
    CHECK(m.ffn == 4 * 12288);
    // GPT-3 175B's preset (Brown et al. 2020) less its 2,048 learned positions and with its own
    // output layer: 12 h^2 + 13 h a layer, two embeddings and the final LayerNorm.
    const double h = 12288;
    CHECK(m.params == 96 * (12 * h * h + 13 * h) + 2 * 50257 * h + 2 * h);
    engine::ModelSpec preset = *engine::find_model("gpt-3-175b");
    preset.context = 0;
    preset.tie_embeddings = false;
    CHECK(m.params == engine::parameter_count(preset));
    CHECK(errors_of(R"(shardreel: 1
defaults:
  model: {arch: gtp, layers: 96, hidden: 12288, heads: 96}
chapters:
  - {id: a, kind: title}
)") == "test.yaml:3:17: error: unknown arch 'gtp' (did you mean 'gpt'?)\n");
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
)") == "test.yaml:3:23: error: unknown cp_mode 'spiral' (expected allgather or ring)\n");
}
