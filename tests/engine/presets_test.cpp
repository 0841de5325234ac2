// Parameter counts from architecture match the published model sizes; presets and nominal models.
#include "engine/presets.hpp"

#include <cmath>
#include <string>

#include "engine_fixtures.hpp"
#include "tests/catch.hpp"

using namespace engine;

TEST_CASE("parameter_count reproduces the published Llama sizes exactly") {
    CHECK(find_model("llama-2-7b")->params == 6'738'415'616.0);
    CHECK(find_model("llama-2-70b")->params == 68'976'648'192.0);
    CHECK(find_model("llama-3-8b")->params == 8'030'261'248.0);
}

TEST_CASE("tied embeddings count the vocab x hidden matrix once: Llama 3.2 1B and 3B exactly") {
    // The released config.json's counts (tie_word_embeddings: true): the output layer is the
    // embedding, so only the final RMSNorm is added after the last layer.
    const ModelSpec one = *find_model("llama-3.2-1b"), three = *find_model("llama-3.2-3b");
    CHECK(one.tie_embeddings);
    CHECK(one.params == 1'235'814'400.0);
    CHECK(three.params == 3'212'749'824.0);
    ModelSpec untied = one;
    untied.tie_embeddings = false;
    CHECK(parameter_count(untied) - one.params == 128256.0 * 2048);
}

TEST_CASE("parameter_count for GPT-3 175B from its architecture") {
    // 96 x (12h^2 + 13h) + 50257h + 2048h + 2h with h = 12288, by hand.
    const double p = find_model("gpt-3-175b")->params;
    CHECK(p == 174'604'259'328.0);
    CHECK(std::abs(p - 175e9) / 175e9 < 0.005);
}

TEST_CASE("parameter_split adds up to the model, scaled for nominal models") {
    const ModelSpec m = *find_model("llama-2-7b");
    const ParamSplit s = parameter_split(m);
    CHECK(s.embedding == 131'072'000.0);
    CHECK(s.per_layer == 202'383'360.0);
    ModelSpec doubled = m;
    doubled.params *= 2;
    CHECK(parameter_split(doubled) ==
          ParamSplit{2 * s.embedding, 2 * s.per_layer, 2 * s.per_layer_active});
    CHECK(s.per_layer_active == s.per_layer);  // dense
}

TEST_CASE("nominal_model takes the nearest preset's shape and the given count") {
    const ModelSpec m7 = nominal_model(7e9);
    CHECK(m7.name == "7B");
    CHECK(m7.params == 7e9);
    CHECK(m7.hidden == 4096);
    CHECK(m7.layers == 32);
    CHECK(m7.kv_heads == 32);  // llama-2-7b, not llama-3-8b
    CHECK(nominal_model(70e9).name == "70B");
    CHECK(nominal_model(70e9).layers == 80);
    CHECK(nominal_model(1.5e9).name == "1.5B");
    CHECK(nominal_model(175e9).name == "175B");
    CHECK(nominal_model(125e6).name == "125M");
    CHECK(nominal_model(1e12).name == "1T");
}

TEST_CASE("presets are found by name, unknown names are not") {
    CHECK(model_presets().size() == 11);
    CHECK(find_model("llama-3.1-405b")->layers == 126);
    CHECK_FALSE(find_model("llama-2-7B").has_value());
    const GpuSpec h100 = *find_gpu("h100-sxm-80gb");
    CHECK(h100.memory == Bytes(80e9));
    CHECK(h100.bf16_dense_tflops == 989);
    CHECK(h100.nvlink == BytesPerSecond(900e9));
    CHECK(h100.network == BytesPerSecond(50e9));
    CHECK(find_gpu("a100-sxm-80gb")->network == BytesPerSecond(25e9));
    CHECK(find_gpu("h200-sxm-141gb")->memory == Bytes(141e9));
    CHECK_FALSE(find_gpu("h100").has_value());
}

TEST_CASE("every model preset is the architecture of its row in models.csv") {
    const auto rows = engine_test::read_csv("reference/models.csv");
    REQUIRE(rows.size() == model_presets().size());
    for (const auto& row : rows) {
        INFO(row.at("name"));
        const auto m = find_model(row.at("name"));
        REQUIRE(m.has_value());
        const char* arch = m->arch == Arch::llama ? "llama" : m->arch == Arch::gpt ? "gpt" : "mla";
        CHECK(arch == row.at("arch"));
        CHECK(m->layers == std::stoi(row.at("layers")));
        CHECK(m->hidden == std::stoi(row.at("hidden")));
        CHECK(m->heads == std::stoi(row.at("heads")));
        CHECK(m->kv_heads == std::stoi(row.at("kv_heads")));
        CHECK(m->ffn == std::stoi(row.at("ffn")));
        CHECK(m->vocab == std::stoi(row.at("vocab")));
        CHECK(m->context == std::stoi(row.at("context")));
        CHECK(m->experts == std::stoi(row.at("experts")));
        CHECK(m->top_k == std::stoi(row.at("top_k")));
        CHECK(m->shared_experts == std::stoi(row.at("shared_experts")));
        CHECK(m->dense_layers == std::stoi(row.at("dense_layers")));
        CHECK(m->dense_ffn == std::stoi(row.at("dense_ffn")));
        const Mla mla{std::stoi(row.at("q_rank")), std::stoi(row.at("kv_rank")),
                      std::stoi(row.at("rope_dim")), std::stoi(row.at("head_dim")),
                      std::stoi(row.at("v_head_dim"))};
        CHECK(m->mla == mla);
        CHECK(m->tie_embeddings == (row.at("tie_embeddings") == "1"));
    }
}

TEST_CASE("every GPU preset is its row in gpus.csv") {
    const auto rows = engine_test::read_csv("reference/gpus.csv");
    REQUIRE(rows.size() == gpu_presets().size());
    for (const auto& row : rows) {
        INFO(row.at("name"));
        const auto g = find_gpu(row.at("name"));
        REQUIRE(g.has_value());
        CHECK(g->memory.value == std::stod(row.at("memory_bytes")));
        CHECK(g->bf16_dense_tflops == std::stod(row.at("bf16_dense_tflops")));
        CHECK(g->nvlink.value == std::stod(row.at("nvlink_bytes_per_s")));
        CHECK(g->network.value == std::stod(row.at("network_bytes_per_s")));
        CHECK(g->fp8_dense_tflops == std::stod(row.at("fp8_dense_tflops")));
        CHECK(g->tf32_dense_tflops == std::stod(row.at("tf32_dense_tflops")));
        CHECK(g->pcie.value == std::stod(row.at("pcie_bytes_per_s")));
        CHECK(g->host_memory.value == std::stod(row.at("host_memory_bytes")));
    }
}

TEST_CASE("Mixtral 8x7B: 46.7B parameters, 12.9B of them used per token") {
    // Mistral AI's announcement of Mixtral 8x7B (2023) and Jiang et al. 2024, section 2: "46.7B
    // total parameters but only uses 12.9B parameters per token".
    const ModelSpec m = *find_model("mixtral-8x7b");
    CHECK(m.params == Approx(46.7e9).epsilon(0.0011));
    CHECK(active_parameter_count(m) == Approx(12.9e9).epsilon(0.004));
    // A dense model uses every parameter; a count never names a mixture of experts.
    const ModelSpec dense = *find_model("llama-2-70b");
    CHECK(active_parameter_count(dense) == dense.params);
    CHECK(nominal_model(46.7e9).experts == 0);
}

TEST_CASE("DeepSeek-V3: 671B parameters, 37B of them used per token") {
    // DeepSeek-AI 2024, the V3 technical report's abstract: "671B total parameters with 37B
    // activated for each token" (the multi-token prediction module's 14B not included).
    const ModelSpec m = *find_model("deepseek-v3");
    CHECK(m.params == Approx(671e9).epsilon(0.0005));
    CHECK(active_parameter_count(m) == Approx(37e9).epsilon(0.02));
    // The mean layer times 61 plus embedding and head is the whole count again.
    const ParamSplit s = parameter_split(m);
    CHECK(s.embedding + m.layers * s.per_layer + double(m.vocab) * m.hidden + m.hidden ==
          Approx(m.params).epsilon(1e-12));
}
