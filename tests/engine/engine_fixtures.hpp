// Configurations shared by the engine tests: a preset model on H100 nodes of eight.
#pragma once
#include <catch2/catch.hpp>
#include <string>

#include "engine/config.hpp"

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

inline engine::Config llama7b(int gpus, int tp = 1, int pp = 1, int zero = 0) {
    return config_for(*engine::find_model("llama-2-7b"), gpus, tp, pp, zero);
}

}  // namespace engine_test
