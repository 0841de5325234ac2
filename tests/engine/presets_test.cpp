// Parameter counts from architecture match the published model sizes; presets and nominal models.
#include "engine/presets.hpp"

#include <catch2/catch.hpp>

using namespace engine;

TEST_CASE("parameter_count reproduces the published Llama sizes exactly") {
    CHECK(find_model("llama-2-7b")->params == 6'738'415'616.0);
    CHECK(find_model("llama-2-70b")->params == 68'976'648'192.0);
    CHECK(find_model("llama-3-8b")->params == 8'030'261'248.0);
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
    CHECK(parameter_split(doubled) == ParamSplit{2 * s.embedding, 2 * s.per_layer});
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
    CHECK(model_presets().size() == 7);
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
