// Builds GPipe, 1F1B and interleaved 1F1B schedules: each stage's operation order, then every
// operation starts as soon as its stage is free and its dependency has finished.
#include "engine/pipeline.hpp"

#include <algorithm>
#include <cassert>

namespace engine {
namespace {

constexpr int kForward = 1, kBackward = 2;  // Narayanan et al. 2021: t_b = 2 t_f

struct Op {
    bool backward = false;
    int micro_batch = 0, chunk = 0;
};
using Order = std::vector<Op>;

// Warm-up forwards, then one forward / one backward, then the remaining backwards (1F1B).
Order one_f_one_b(int total, int warmup, auto forward, auto backward) {
    Order order;
    int f = 0, b = 0;
    while (f < warmup) order.push_back(forward(f++));
    while (f < total) {
        order.push_back(forward(f++));
        order.push_back(backward(b++));
    }
    while (b < total) order.push_back(backward(b++));
    return order;
}

Order stage_order(Schedule kind, int p, int m, int v, int stage) {
    if (kind == Schedule::interleaved && v > 1) {  // one chunk per GPU is plain 1F1B
        // Megatron-LM's interleaved schedule: micro-batches in groups of p per chunk, forward
        // through chunks 0..v-1, backward through v-1..0; all forwards first when m == p.
        const auto mb = [=](int j) { return j / (p * v) * p + j % p; };
        const auto forward = [=](int j) { return Op{false, mb(j), j / p % v}; };
        const auto backward = [=](int j) { return Op{true, mb(j), v - 1 - j / p % v}; };
        const int warmup = m == p ? m * v : std::min((p - stage - 1) * 2 + (v - 1) * p, m * v);
        return one_f_one_b(m * v, warmup, forward, backward);
    }
    const auto forward = [](int i) { return Op{false, i, 0}; };
    const auto backward = [](int i) { return Op{true, i, 0}; };
    // GPipe (Huang et al. 2019) runs every forward first; 1F1B warms up with p - s - 1.
    const int warmup = kind == Schedule::gpipe ? m : std::min(p - stage - 1, m);
    return one_f_one_b(m, warmup, forward, backward);
}

// End times of each (direction, virtual stage, micro-batch); -1 while not yet scheduled.
class Finish {
  public:
    Finish(int virtual_stages, int m)
        : stages_(virtual_stages), m_(m), end_(2 * stages_ * m_, -1) {}
    int& at(bool backward, int k, int mb) { return end_[(int(backward) * stages_ + k) * m_ + mb]; }

  private:
    int stages_, m_;
    std::vector<int> end_;
};

}  // namespace

PipelineSchedule pipeline_schedule(Schedule kind, int stages, int micro_batches, int chunks) {
    const int p = stages, m = micro_batches;
    const int v = kind == Schedule::interleaved ? chunks : 1;
    PipelineSchedule s{p, m, v, kind, {}};
    std::vector<Order> orders;
    for (int stage = 0; stage < p; ++stage) orders.push_back(stage_order(kind, p, m, v, stage));
    const int last = p * v - 1;  // virtual stage k = chunk * p + stage
    Finish finish(p * v, m);
    std::vector<std::size_t> next(p, 0);
    std::vector<int> free_at(p, 0);
    for (bool progress = true; progress;) {
        progress = false;
        for (int stage = 0; stage < p; ++stage) {
            for (; next[stage] < orders[stage].size(); ++next[stage]) {
                const Op op = orders[stage][next[stage]];
                const int k = op.chunk * p + stage;
                // A forward needs the previous virtual stage's forward; a backward needs the
                // next one's backward, or on the last virtual stage its own forward.
                const int dep = !op.backward ? (k > 0 ? finish.at(false, k - 1, op.micro_batch) : 0)
                                : k < last   ? finish.at(true, k + 1, op.micro_batch)
                                             : finish.at(false, k, op.micro_batch);
                if (dep < 0) break;
                const int start = std::max(free_at[stage], dep);
                const int duration = op.backward ? kBackward : kForward;
                free_at[stage] = finish.at(op.backward, k, op.micro_batch) = start + duration;
                s.slots.push_back({stage, op.micro_batch, op.chunk, op.backward, start, duration});
                progress = true;
            }
        }
    }
    assert(s.slots.size() == std::size_t(2 * p * m * v) && "pipeline schedule deadlocked");
    std::sort(s.slots.begin(), s.slots.end(), [](const PipelineSlot& a, const PipelineSlot& b) {
        return a.start != b.start ? a.start < b.start : a.stage < b.stage;
    });
    return s;
}

int PipelineSchedule::makespan() const {
    int end = 0;
    for (const PipelineSlot& slot : slots) end = std::max(end, slot.start + slot.duration);
    return end;
}

double PipelineSchedule::idle_fraction() const {
    long busy = 0;
    for (const PipelineSlot& slot : slots) busy += slot.duration;
    const long area = long(stages) * makespan();
    return double(area - busy) / double(area);
}

int PipelineSchedule::max_in_flight(int stage) const {
    int live = 0, most = 0;
    for (const PipelineSlot& slot : slots) {  // sorted by start
        if (slot.stage != stage) continue;
        live += slot.backward ? -1 : 1;
        most = std::max(most, live);
    }
    return most;
}

double bubble_fraction(int p, int m) { return double(p - 1) / double(m + p - 1); }

double interleaved_bubble_over_ideal(int p, int m, int v) { return double(p - 1) / double(v * m); }

double bubble_fraction(Schedule kind, int p, int m, int v) {
    // Narayanan et al. 2021, section 2.2: interleaving shrinks the bubble v times relative to
    // the ideal time, i.e. (p-1)/(v m + p-1) of the makespan.
    return kind == Schedule::interleaved ? double(p - 1) / double(v * m + p - 1)
                                         : bubble_fraction(p, m);
}

}  // namespace engine
