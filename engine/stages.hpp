// Pipeline stages as a real run lays them out: which layers, and whether the embedding and the
// output layer, each holds (by the layout's pipeline_split), and how many micro-batches'
// activations each holds at once under the schedule.
#pragma once
#include <vector>

#include "engine/config.hpp"

namespace engine {

struct StageShape {
    int layers = 0;
    // The input embedding; the output layer; the fp32 cast of its logits and the loss (on the
    // output layer's stage, or after it when a split by compute moves on between them).
    bool embedding = false, head = false, loss = false;
    bool empty() const { return layers == 0 && !embedding && !head && !loss; }
    bool operator==(const StageShape&) const = default;
};

// Every stage, first to last (one stage when pp is 1). Precondition: 1 <= pp <= layers.
std::vector<StageShape> stage_shapes(const ModelSpec& m, int pp, StageSplit split);
int head_stage(const std::vector<StageShape>& stages);  // the stage with the output layer

// Micro-batches whose activations `stage` holds at once (fractional with interleaved chunks):
// m (GPipe); min(m, p - s) (1F1B: p - s - 1 warm-up forwards and one more); min(m, p) and
// min(m, 2p - 1) on every stage (ZB-H1, ZB-H2: later stages hold back Ws, which keep theirs);
// ((p - s - 1) 2 + (v - 1) p + 1) / v chunks of 1/v (interleaved, Megatron-LM's warm-up count;
// m when m = p); min(m, p + 1) on every GPU (DualPipe, DeepSeek-V3 Table 2).
double in_flight_on_stage(const Training& t, int pp, int stage);

}  // namespace engine
