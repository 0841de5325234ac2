// Pipeline stages: the layers and ends each holds, and the micro-batches in flight on each.
#include "engine/stages.hpp"

#include <algorithm>

#include "engine/presets.hpp"

namespace engine {
namespace {

std::vector<StageShape> even_split(const ModelSpec& m, int pp) {
    const int per = (m.layers + pp - 1) / pp;
    std::vector<StageShape> stages(pp);
    for (int s = 0; s < pp; ++s) stages[s].layers = std::clamp(m.layers - s * per, 0, per);
    stages.front().embedding = stages.back().head = stages.back().loss = true;
    return stages;
}

// What nanotron's build_model weighs a block by (LlamaModel.get_block_compute_costs): a layer its
// weight matrices, which is what a token multiplies (norm weights and biases are not matrices),
// the output layer vocab x hidden; the embedding, final norm, fp32 cast and loss nothing (each a
// block of its own: nanotron's LlamaForTraining).
double layer_cost(const ModelSpec& m) {
    const double h = m.hidden;
    const double vectors = m.arch == Arch::gpt ? 9 * h + m.ffn : 2 * h;
    return parameter_split(m).per_layer_active - vectors * (m.params / parameter_count(m));
}

// Blocks in model order go to the current stage, which is left once the running cost passes
// total x ((s + 1) / pp) (nanotron's thresholds, computed alike, so a tie stays).
std::vector<StageShape> compute_split(const ModelSpec& m, int pp) {
    const double layer = layer_cost(m);
    const double head = double(m.vocab) * m.hidden * (m.params / parameter_count(m));
    const double total = layer * m.layers + head;
    std::vector<StageShape> stages(pp);
    int s = 0;
    double running = 0;
    const auto place = [&](double cost) {
        const int at = std::min(s, pp - 1);
        running += cost;
        if (running > total * ((s + 1.0) / pp)) ++s;
        return at;
    };
    stages[place(0)].embedding = true;
    for (int l = 0; l < m.layers; ++l) ++stages[place(layer)].layers;
    place(0);  // the final norm
    stages[place(head)].head = true;
    place(0);  // the logits' cast to fp32
    stages[place(0)].loss = true;
    return stages;
}

}  // namespace

std::vector<StageShape> stage_shapes(const ModelSpec& m, int pp, StageSplit split) {
    if (pp <= 1) return {StageShape{m.layers, true, true, true}};
    return split == StageSplit::compute ? compute_split(m, pp) : even_split(m, pp);
}

int head_stage(const std::vector<StageShape>& stages) {
    const auto it = std::ranges::find_if(stages, &StageShape::head);
    return it == stages.end() ? int(stages.size()) - 1 : int(it - stages.begin());
}

double in_flight_on_stage(const Training& t, int pp, int stage) {
    // Without a pipeline, gradient accumulation finishes one micro-batch before the next.
    if (pp == 1) return 1;
    const int m = t.micro_batches, after = pp - stage;  // this stage and the ones after it
    switch (t.schedule) {
        case Schedule::gpipe:  // Huang et al. 2019: every forward first
            return m;
        // Qi et al. 2023, section 3.1: stage s holds back s Ws (ZB-H1) or 2s (ZB-H2), and a W
        // still reads its micro-batch's activations, so every stage holds stage 0's p or 2p - 1.
        case Schedule::zb_h1:
            return std::min(m, pp);
        case Schedule::zb_h2:
            return std::min(m, 2 * pp - 1);
        case Schedule::dualpipe:  // DeepSeek-V3 report, Table 2: PP + 1 over both stage copies
            return std::min(m, pp + 1);
        case Schedule::interleaved:
            if (t.chunks > 1 && m > pp) {
                // Megatron-LM: stage s runs (p - s - 1) 2 + (v - 1) p chunk forwards before its
                // first backward and holds one more, each 1/v of a micro-batch.
                const double chunks = (after - 1) * 2.0 + (t.chunks - 1.0) * pp + 1;
                return std::min<double>(m, chunks / t.chunks);
            }
            if (t.chunks > 1) return m;  // m = p: every forward first
            break;
        default:
            break;
    }
    // 1F1B (Narayanan et al. 2021): p - s - 1 warm-up forwards, and one more.
    return std::min(m, after);
}

}  // namespace engine
