// Pipeline schedules (GPipe, 1F1B, interleaved 1F1B, ZB-H1, ZB-H2, DualPipe) as slot lists, and
// the bubble they leave.
#pragma once
#include <vector>

#include "engine/config.hpp"

namespace engine {

// What a slot computes. GPipe, 1F1B and interleaved run one whole backward; the zero-bubble
// schedules (Qi et al. 2023) split it into the gradient for the input (B), which the previous
// stage waits for, and the gradient for the weights (W), which nothing waits for.
enum class Pass { forward, backward, backward_input, backward_weight };
bool is_backward(Pass p);   // any of the three backward passes
bool ends_stay(Pass p);     // the last pass of a micro-batch on a stage: its activations go
int pass_duration(Pass p);  // 1 forward; 2 whole backward; 1 each for B and W

// Time is in units of one forward pass of one micro-batch through one (virtual) stage. A whole
// backward takes two units (Narayanan et al. 2021 assume t_b = 2 t_f); split, B and W take one
// each (Qi et al. 2023's handcrafted schedules assume T_F = T_B = T_W).
struct PipelineSlot {
    int stage = 0;        // physical stage (GPU row), 0 .. p-1
    int micro_batch = 0;  // 0 .. m-1
    int chunk = 0;        // virtual stage on this GPU (interleaved), direction (DualPipe), else 0
    Pass pass = Pass::forward;
    int start = 0, duration = 0;
    bool backward() const { return is_backward(pass); }
    bool operator==(const PipelineSlot&) const = default;
};

struct PipelineSchedule {
    int stages = 0, micro_batches = 0, chunks = 1;  // chunks: 2 stage copies per GPU (DualPipe)
    Schedule kind = Schedule::one_f_one_b;
    std::vector<PipelineSlot> slots;
    int makespan() const;          // end of the last slot
    double idle_fraction() const;  // idle slot-time / (stages x makespan), measured from slots
    // Idle time between a stage's first start and its last end: the bubble as Qi et al. 2023
    // and the DeepSeek-V3 report (Table 2) count it, which lets stages start and end staggered.
    int idle_within(int stage) const;
    double idle_share(int stage) const;  // idle_within(stage) / that stage's span (0 if none)
    double bubble_share() const;         // the largest idle_share(stage)
    // Most micro-batches whose activations a stage holds at once: forwards not yet ended by
    // their whole backward, or by W when backward is split (W still reads the activations).
    int max_in_flight(int stage) const;
};

PipelineSchedule pipeline_schedule(Schedule kind, int stages, int micro_batches, int chunks = 1);

double bubble_fraction(int p, int m);                       // (p-1)/(m+p-1)   (GPipe eq.)
double interleaved_bubble_over_ideal(int p, int m, int v);  // (p-1)/(v m)     (Narayanan 2021)
// The bubble's share of a stage's span for a schedule: (p-1)/(m+p-1); (p-1)/(v m+p-1)
// interleaved; (p-1)/(3m+p-1) ZB-H1; 0 ZB-H2; (p/2-1)/(3m+p/2-1) DualPipe (see pipeline.cpp).
double bubble_fraction(Schedule kind, int p, int m, int v);

}  // namespace engine
