// The FSDP (ZeRO-3) timeline of one step on one GPU: each layer gathered, used and resharded,
// forward then backward, with the resident memory after every event.
#include "engine/fsdp.hpp"

#include "engine/comm.hpp"
#include "engine/memory.hpp"

namespace engine {
namespace {

struct Durations {
    double gather = 0, reduce_scatter = 0;  // in units of one layer's forward
};

// Kaplan et al. 2020: a forward costs 2 flops per parameter per token; backward twice that.
Durations durations(const Config& c, const FsdpPlan& plan, double layer_params) {
    const double tokens = double(c.training.seq_len) * c.training.micro_batch;
    const Seconds forward(2 * layer_params * tokens / (c.cluster.gpu.bf16_dense_tflops * 1e12));
    const BytesPerSecond link = group_bandwidth(c, Group::dp);
    return {(all_gather_bytes(plan.layer_full_bytes, plan.shards) / link) / forward,
            (reduce_scatter_bytes(plan.layer_grad_bytes, plan.shards) / link) / forward};
}

class Timeline {
  public:
    explicit Timeline(FsdpPlan& plan) : plan_(plan) {}
    void add(FsdpOp op, int layer, double duration, Bytes live) {
        plan_.events.push_back({op, layer, now_, duration, live});
        now_ += duration;
    }

  private:
    FsdpPlan& plan_;
    double now_ = 0;
};

}  // namespace

double FsdpPlan::duration() const {
    return events.empty() ? 0 : events.back().start + events.back().duration;
}

FsdpPlan fsdp_plan(const Config& c) {
    Config zero3 = c;
    zero3.layout.zero = 3;
    const PerGpu sharded = per_gpu_memory(zero3);
    const BytesPerParam bpp =
        bytes_per_param(c.training.precision, c.training.grad_dtype, c.training.optimizer);
    const double layer_params = parameter_split(c.model).per_layer / c.layout.tp;

    FsdpPlan plan;
    plan.layers = layers_per_stage(c.model, c.layout.pp);
    plan.shards = c.layout.dp();
    plan.sharded_states = sharded.weights + sharded.gradients + sharded.optimizer;
    // FSDP gathers into a separate unsharded buffer, so the full layer adds on top of the shards.
    plan.layer_full_bytes = Bytes(layer_params * bpp.weights);
    plan.layer_grad_bytes = Bytes(layer_params * bpp.gradients);
    plan.peak_bytes = plan.sharded_states + plan.layer_full_bytes + plan.layer_grad_bytes;

    const Durations d = durations(c, plan, layer_params);
    const Bytes base = plan.sharded_states, gathered = base + plan.layer_full_bytes;
    Timeline t(plan);
    for (int l = 0; l < plan.layers; ++l) {
        t.add(FsdpOp::gather, l, d.gather, gathered);
        t.add(FsdpOp::forward, l, 1, gathered);
        t.add(FsdpOp::reshard, l, 0, base);
    }
    for (int l = plan.layers - 1; l >= 0; --l) {
        t.add(FsdpOp::gather_backward, l, d.gather, gathered);
        t.add(FsdpOp::backward, l, 2, plan.peak_bytes);
        t.add(FsdpOp::reduce_scatter, l, d.reduce_scatter, gathered);
        t.add(FsdpOp::reshard, l, 0, base);
    }
    return plan;
}

}  // namespace engine
