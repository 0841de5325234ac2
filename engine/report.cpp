// Gathers every figure for one configuration from the memory, comm and pipeline models.
#include "engine/report.hpp"

#include "engine/pipeline.hpp"

namespace engine {

Report analyze(const Config& c) {
    Report r;
    r.params = c.model.params;
    r.params_active = active_parameter_count(c.model);
    r.bytes_per_param =
        bytes_per_param(c.training.precision, c.training.grad_dtype, c.training.optimizer);
    r.model_states = model_states_bytes(c.model, c.training);
    r.gpus_to_hold_model_states = gpus_to_hold(r.model_states, c.cluster.gpu.memory);
    r.layout = c.layout;
    r.per_gpu = per_gpu_memory(c);
    r.activations = {activation_bytes_per_layer(c.model, c.training, c.layout.tp, c.layout.cp),
                     layers_per_stage(c.model, c.layout.pp),
                     in_flight_micro_batches(c.training, c.layout.pp)};
    r.comm = comm_per_step(c);
    r.bubble_fraction = bubble_fraction(c.training.schedule, c.layout.pp, c.training.micro_batches,
                                        c.training.chunks);
    r.flops = step_flops(c);
    r.offload = offload_traffic(c);
    r.step = step_time(c, r.flops, r.comm, r.bubble_fraction, r.offload.seconds);
    return r;
}

}  // namespace engine
