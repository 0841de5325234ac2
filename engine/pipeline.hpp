// Pipeline schedules (GPipe, 1F1B, interleaved 1F1B) as slot lists, and the bubble they leave.
#pragma once
#include <vector>

#include "engine/config.hpp"

namespace engine {

// Time is in units of one forward pass of one micro-batch through one (virtual) stage;
// a backward pass takes two units (Narayanan et al. 2021 assume t_b = 2 t_f).
struct PipelineSlot {
    int stage = 0;        // physical stage (GPU row), 0 .. p-1
    int micro_batch = 0;  // 0 .. m-1
    int chunk = 0;        // virtual stage on this GPU (interleaved), else 0
    bool backward = false;
    int start = 0, duration = 0;
    bool operator==(const PipelineSlot&) const = default;
};

struct PipelineSchedule {
    int stages = 0, micro_batches = 0, chunks = 1;
    Schedule kind = Schedule::one_f_one_b;
    std::vector<PipelineSlot> slots;
    int makespan() const;          // end of the last slot
    double idle_fraction() const;  // idle slot-time / (stages x makespan), measured from slots
    int max_in_flight(int stage) const;  // most forwards on a stage not yet matched by backward
};

PipelineSchedule pipeline_schedule(Schedule kind, int stages, int micro_batches, int chunks = 1);

double bubble_fraction(int p, int m);                       // (p-1)/(m+p-1)   (GPipe eq.)
double interleaved_bubble_over_ideal(int p, int m, int v);  // (p-1)/(v m)     (Narayanan 2021)
// Idle share of the makespan for a schedule: (p-1)/(m+p-1), or (p-1)/(v m+p-1) interleaved.
double bubble_fraction(Schedule kind, int p, int m, int v);

}  // namespace engine
