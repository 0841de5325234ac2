// Configurations shared by the engine tests: a preset model on H100 nodes of eight.
#pragma once
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "engine/config.hpp"
#include "engine/presets.hpp"
#include "tests/catch.hpp"

// Quantities print as their value when a check fails.
namespace Catch {
template <class Tag>
struct StringMaker<engine::Quantity<Tag>> {
    static std::string convert(const engine::Quantity<Tag>& q) {
        return StringMaker<double>::convert(q.value);
    }
};
}  // namespace Catch

namespace engine_test {

inline engine::Config config_for(const engine::ModelSpec& model, int gpus, int tp = 1, int pp = 1,
                                 int zero = 0) {
    engine::Config c;
    c.model = model;
    c.cluster.gpu = *engine::find_gpu("h100-sxm-80gb");
    c.cluster.nvlink = c.cluster.gpu.nvlink;
    c.cluster.network = c.cluster.gpu.network;
    c.cluster.gpus_per_node = 8;
    c.cluster.nodes = (gpus + 7) / 8;
    c.layout = {gpus, tp, pp, zero};
    return c;
}

// validate(c)'s problems, one a line, so a failed check prints them all.
inline std::string problems(const engine::Config& c) {
    std::string all;
    for (const std::string& p : engine::validate(c)) all += p + "\n";
    return all;
}

// Rows of a CSV under tests/data/ (copied from published tables and measurements), by column.
inline std::vector<std::map<std::string, std::string>> read_csv(const std::string& name) {
    std::ifstream in(SHARDREEL_SOURCE_DIR "/tests/data/" + name);
    REQUIRE(in.good());
    const auto split = [](const std::string& line) {
        std::vector<std::string> cells;
        std::stringstream ss(line);
        for (std::string cell; std::getline(ss, cell, ',');) cells.push_back(cell);
        return cells;
    };
    std::string line;
    std::getline(in, line);
    const auto header = split(line);
    std::vector<std::map<std::string, std::string>> rows;
    while (std::getline(in, line)) {
        const auto cells = split(line);
        std::map<std::string, std::string> row;
        for (std::size_t i = 0; i < header.size() && i < cells.size(); ++i)
            row[header[i]] = cells[i];
        rows.push_back(row);
    }
    return rows;
}

inline engine::Config llama7b(int gpus, int tp = 1, int pp = 1, int zero = 0) {
    return config_for(*engine::find_model("llama-2-7b"), gpus, tp, pp, zero);
}

// The shapes of nanotron's H100 benchmark (tests/data/measured/README.md): "1B" (16 layers, h
// 2,048, MLP 8,192, tied) or "8B" (32 layers, h 4,096, MLP 14,336); multi-head attention with 32
// heads, vocabulary 131,072, sequences of 4,096.
inline engine::ModelSpec nanotron_model(const std::string& size) {
    const bool one = size == "1B";
    engine::ModelSpec m;
    m.name = "nanotron-" + size;
    m.layers = one ? 16 : 32;
    m.hidden = one ? 2048 : 4096;
    m.heads = m.kv_heads = 32;
    m.ffn = one ? 8192 : 14336;
    m.vocab = 131072;
    m.context = 4096;
    m.tie_embeddings = one;
    m.params = engine::parameter_count(m);
    return m;
}

// A run as the benchmark sets it up: bf16 with fp32 gradient accumulation, one sequence per
// micro-batch, 32 micro-batches, sequence parallelism with tp.
inline engine::Config nanotron_config(const std::string& size, int gpus, int tp = 1, int pp = 1,
                                      int zero = 0) {
    engine::Config c = config_for(nanotron_model(size), gpus, tp, pp, zero);
    c.training.grad_accum_dtype = engine::GradAccumDtype::fp32;
    c.training.micro_batches = 32;
    c.training.sequence_parallel = tp > 1;
    return c;
}

// Korthikanti et al. 2022's 22B (their Table 3): 48 layers, h 6,144, 64 heads, s 2,048,
// vocabulary 51,200, on one DGX A100 (8 GPUs, NVLink 600 GB/s) with tp 8; their global batch of 4
// sequences as 4 micro-batches of one, selective recomputation.
inline engine::Config korthikanti_22b() {
    engine::ModelSpec m = *engine::find_model("gpt-3-175b");
    m.name = "gpt-22b";
    m.layers = 48;
    m.hidden = 6144;
    m.heads = m.kv_heads = 64;
    m.ffn = 4 * 6144;
    m.vocab = 51200;
    m.params = engine::parameter_count(m);
    engine::Config c = config_for(m, 8, 8);
    c.cluster.gpu = *engine::find_gpu("a100-sxm-80gb");
    c.cluster.nvlink = c.cluster.gpu.nvlink;
    c.cluster.network = c.cluster.gpu.network;
    c.training.seq_len = 2048;
    c.training.micro_batches = 4;
    c.training.recompute = engine::Recompute::selective;
    return c;
}

}  // namespace engine_test
