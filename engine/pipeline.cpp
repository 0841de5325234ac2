// Builds GPipe, 1F1B, interleaved 1F1B, ZB-H1, ZB-H2 and DualPipe schedules: each stage's
// operation order, then every operation starts as soon as its stage is free and its dependency
// has finished.
#include "engine/pipeline.hpp"

#include <algorithm>
#include <cassert>
#include <deque>

namespace engine {

bool is_backward(Pass p) { return p != Pass::forward; }
bool ends_stay(Pass p) { return p == Pass::backward || p == Pass::backward_weight; }
int pass_duration(Pass p) { return p == Pass::backward ? 2 : 1; }  // see PipelineSlot

namespace {

struct Op {
    Pass pass = Pass::forward;
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

Order interleaved_order(int p, int m, int v, int stage) {
    // Megatron-LM's interleaved schedule: micro-batches in groups of p per chunk, forward
    // through chunks 0..v-1, backward through v-1..0; all forwards first when m == p.
    const auto mb = [=](int j) { return j / (p * v) * p + j % p; };
    const auto forward = [=](int j) { return Op{Pass::forward, mb(j), j / p % v}; };
    const auto backward = [=](int j) { return Op{Pass::backward, mb(j), v - 1 - j / p % v}; };
    const int warmup = m == p ? m * v : std::min((p - stage - 1) * 2 + (v - 1) * p, m * v);
    return one_f_one_b(m * v, warmup, forward, backward);
}

// One stage of a zero-bubble schedule (Qi et al. 2023, section 3): F, B and W in micro-batch
// order, each W held back until more than `lag` are pending, so that the held Ws fill the
// time this stage would otherwise wait for a B from the next stage.
class SplitOrder {
  public:
    SplitOrder(int m, int lag) : m_(m), lag_(lag) {}
    bool forwards_left() const { return f_ < m_; }
    void forward() { order_.push_back({Pass::forward, f_++, 0}); }
    void backward() {
        order_.push_back({Pass::backward_input, b_++, 0});
        if (b_ - w_ > lag_) weight();
    }
    Order finish() {
        while (b_ < m_) backward();
        while (w_ < m_) weight();
        return order_;
    }

  private:
    void weight() { order_.push_back({Pass::backward_weight, w_++, 0}); }
    int m_, lag_, f_ = 0, b_ = 0, w_ = 0;
    Order order_;
};

// ZB-H1 (Qi et al. 2023, Figure 3): 1F1B's warm-up of p-s-1 forwards, so stage s never holds
// more than p micro-batches; stage s holds back s Ws, which fill the cool-down.
Order zb_h1_order(int p, int m, int stage) {
    SplitOrder o(m, stage);
    for (int i = 0; i < std::min(p - stage - 1, m); ++i) o.forward();
    while (o.forwards_left()) {
        o.forward();
        o.backward();
    }
    return o.finish();
}

// ZB-H2 (Qi et al. 2023, Figure 4): 2(p-s)-1 warm-up forwards fill the wait for the first B,
// then B W F; stage s holds back 2s Ws for the cool-down, so stage s runs from s to s + 3m
// without a gap (a parallelogram) and holds 2p-1 micro-batches at most.
Order zb_h2_order(int p, int m, int stage) {
    SplitOrder o(m, 2 * stage);
    for (int i = 0; i < std::min(2 * (p - stage) - 1, m); ++i) o.forward();
    while (o.forwards_left()) {
        o.backward();
        o.forward();
    }
    return o.finish();
}

// One GPU of DualPipe: phase 0 is the direction whose micro-batches enter at this half's end.
// Direction d's micro-batches are numbered d m/2 .. d m/2 + m/2 - 1; chunk = direction.
class DualOrder {
  public:
    DualOrder(int p, int m, int stage) : half_(m / 2), second_half_(stage >= p / 2) {}
    void forward(int phase) {
        const int d = phase ^ int(second_half_);
        order_.push_back({Pass::forward, d * half_ + f_[d]++, d});
    }
    // Whole backward as B then W at once; with zb (zero bubble) W waits for weight().
    void backward(int phase, bool zb = false) {
        const int d = phase ^ int(second_half_), mb = d * half_ + b_[d]++;
        order_.push_back({Pass::backward_input, mb, d});
        const Op weight{Pass::backward_weight, mb, d};
        if (zb)
            held_.push_back(weight);
        else
            order_.push_back(weight);
    }
    void weight() {
        order_.push_back(held_.front());
        held_.pop_front();
    }
    Order order() const { return order_; }

  private:
    int half_;
    bool second_half_;
    int f_[2] = {0, 0}, b_[2] = {0, 0};
    std::deque<Op> held_;
    Order order_;
};

void repeat(int n, auto step) {
    for (int i = 0; i < n; ++i) step(i);
}

// DualPipe's eight steps for one GPU, as deepseek-ai/DualPipe's DualPipe.step runs them (the
// DeepSeek-V3 report, section 3.2.1, Figure 5). An overlapped F&B pair is modelled as its F then
// its B, each starting once ready: the overlap hides communication, which slots do not show.
Order dualpipe_order(int p, int m, int stage) {
    const int h = p / 2, r = std::min(stage, p - 1 - stage);
    DualOrder o(p, m, stage);
    repeat((h - r - 1) * 2, [&](int) { o.forward(0); });                             // 1: nF0
    repeat(r + 1, [&](int) { o.forward(0), o.forward(1); });                         // 2: nF0F1
    repeat(h - r - 1, [&](int) { o.backward(1, true), o.weight(), o.forward(1); });  // 3: nB1W1F1
    repeat(m / 2 - p + r + 1, [&](int) {  // 4: nF0B1F1B0, the pairs F0&B1 and F1&B0
        o.forward(0), o.backward(1), o.forward(1), o.backward(0);
    });
    repeat(h - r - 1, [&](int) { o.backward(1), o.forward(1), o.backward(0); });  // 5: nB1F1B0
    repeat(r + 1, [&](int i) {  // 6: nB1B0, zero bubble from the middle on
        const bool zb_from_here = i >= (r + 1) / 2;
        o.backward(1, zb_from_here && (i > (r + 1) / 2 || r % 2 == 1));
        o.backward(0, zb_from_here);
    });
    repeat(h - r - 1, [&](int) { o.weight(), o.backward(0, true); });  // 7: nWB0
    repeat(r + 1, [&](int) { o.weight(); });                           // 8: nW
    return o.order();
}

Order stage_order(Schedule kind, int p, int m, int v, int stage) {
    switch (kind) {
        case Schedule::zb_h1:
            return zb_h1_order(p, m, stage);
        case Schedule::zb_h2:
            return zb_h2_order(p, m, stage);
        case Schedule::dualpipe:
            return dualpipe_order(p, m, stage);
        case Schedule::interleaved:
            if (v > 1) return interleaved_order(p, m, v, stage);  // one chunk is plain 1F1B
            break;
        default:
            break;
    }
    const auto forward = [](int i) { return Op{Pass::forward, i, 0}; };
    const auto backward = [](int i) { return Op{Pass::backward, i, 0}; };
    // GPipe (Huang et al. 2019) runs every forward first; 1F1B warms up with p - s - 1.
    const int warmup = kind == Schedule::gpipe ? m : std::min(p - stage - 1, m);
    return one_f_one_b(m, warmup, forward, backward);
}

// Where (stage, chunk) sits on its micro-batches' path: interleaved k = chunk p + stage;
// DualPipe's direction 1 enters at the last GPU, so its path runs p-1 .. 0.
int path_position(Schedule kind, int p, int stage, int chunk) {
    if (kind == Schedule::dualpipe) return chunk == 0 ? stage : p - 1 - stage;
    return chunk * p + stage;
}

// End times of each (forward / gradient for the input / W, path position, micro-batch); -1
// while not yet scheduled. A whole backward and a B both send the input's gradient back.
class Finish {
  public:
    Finish(int positions, int m) : positions_(positions), m_(m), end_(3 * positions_ * m_, -1) {}
    int& at(Pass pass, int k, int mb) { return end_[(row(pass) * positions_ + k) * m_ + mb]; }
    int last() const { return positions_ - 1; }

    // A forward needs the previous position's forward; a backward (or B) the next one's, or on
    // the last position its own forward; W its own B.
    int ready(const Op& op, int k) {
        if (op.pass == Pass::forward) return k > 0 ? at(Pass::forward, k - 1, op.micro_batch) : 0;
        if (op.pass == Pass::backward_weight) return at(Pass::backward_input, k, op.micro_batch);
        return k < last() ? at(op.pass, k + 1, op.micro_batch)
                          : at(Pass::forward, k, op.micro_batch);
    }

  private:
    static int row(Pass pass) {
        return pass == Pass::forward ? 0 : pass == Pass::backward_weight ? 2 : 1;
    }
    int positions_, m_;
    std::vector<int> end_;
};

// Runs every stage's order as far as dependencies allow; returns whether anything was placed.
bool place_ready(PipelineSchedule& s, const std::vector<Order>& orders, Finish& finish,
                 std::vector<std::size_t>& next, std::vector<int>& free_at) {
    bool progress = false;
    for (int stage = 0; stage < s.stages; ++stage) {
        for (; next[stage] < orders[stage].size(); ++next[stage]) {
            const Op op = orders[stage][next[stage]];
            const int k = path_position(s.kind, s.stages, stage, op.chunk);
            const int dep = finish.ready(op, k);
            if (dep < 0) break;
            const int start = std::max(free_at[stage], dep), duration = pass_duration(op.pass);
            free_at[stage] = finish.at(op.pass, k, op.micro_batch) = start + duration;
            s.slots.push_back({stage, op.micro_batch, op.chunk, op.pass, start, duration});
            progress = true;
        }
    }
    return progress;
}

}  // namespace

PipelineSchedule pipeline_schedule(Schedule kind, int stages, int micro_batches, int chunks) {
    const int p = stages, m = micro_batches;
    const int v = kind == Schedule::interleaved ? chunks : kind == Schedule::dualpipe ? 2 : 1;
    PipelineSchedule s{p, m, v, kind, {}};
    std::vector<Order> orders;
    [[maybe_unused]] std::size_t ops = 0;  // read by the assert alone
    for (int stage = 0; stage < p; ++stage) {
        orders.push_back(stage_order(kind, p, m, v, stage));
        ops += orders.back().size();
    }
    Finish finish(kind == Schedule::dualpipe ? p : p * v, m);
    std::vector<std::size_t> next(p, 0);
    std::vector<int> free_at(p, 0);
    while (place_ready(s, orders, finish, next, free_at)) {
    }
    assert(s.slots.size() == ops && "pipeline schedule deadlocked");
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

namespace {
struct Span {
    int first = -1, last = 0, busy = 0;
};
Span span_of(const std::vector<PipelineSlot>& slots, int stage) {
    Span s;
    for (const PipelineSlot& slot : slots) {  // sorted by start
        if (slot.stage != stage) continue;
        if (s.first < 0) s.first = slot.start;
        s.last = std::max(s.last, slot.start + slot.duration);
        s.busy += slot.duration;
    }
    return s;
}
}  // namespace

int PipelineSchedule::idle_within(int stage) const {
    const Span s = span_of(slots, stage);
    return s.first < 0 ? 0 : s.last - s.first - s.busy;
}

double PipelineSchedule::idle_share(int stage) const {
    const Span s = span_of(slots, stage);
    return s.first < 0 ? 0 : double(idle_within(stage)) / (s.last - s.first);
}

double PipelineSchedule::bubble_share() const {
    double most = 0;
    for (int stage = 0; stage < stages; ++stage) most = std::max(most, idle_share(stage));
    return most;
}

int PipelineSchedule::max_in_flight(int stage) const {
    int live = 0, most = 0;
    for (const PipelineSlot& slot : slots) {  // sorted by start
        if (slot.stage != stage) continue;
        live += slot.pass == Pass::forward ? 1 : ends_stay(slot.pass) ? -1 : 0;
        most = std::max(most, live);
    }
    return most;
}

double bubble_fraction(int p, int m) { return double(p - 1) / double(m + p - 1); }

double interleaved_bubble_over_ideal(int p, int m, int v) { return double(p - 1) / double(v * m); }

namespace {
// Qi et al. 2023's handcrafted schedules take T_F = T_B = T_W; so does the slot model.
constexpr double kTf = 1, kTb = 1, kTw = 1;

// A stage's bubble as a share of its span: bubble / (bubble + its own work).
double share(double bubble, double work) { return bubble / (bubble + work); }

// With too few micro-batches the paper's bubble does not hold: stage 0's first B cannot start
// before p forwards and p-1 Bs have passed through the pipeline, 2p-1 units after its first F
// (T_F = T_B = 1), so m forwards leave it 2p-1-m idle (derived here; the slots agree, tests).
double warm_up_wait(int p, int m, double bubble) {
    return std::max(bubble, (2.0 * p - 1 - m) * kTf);
}
}  // namespace

double bubble_fraction(Schedule kind, int p, int m, int v) {
    const double work = m * (kTf + kTb + kTw);  // one stage's F, B and W for m micro-batches
    switch (kind) {
        // Narayanan et al. 2021, section 2.2: interleaving shrinks the bubble v times relative
        // to the ideal time, i.e. (p-1)/(v m + p-1) of the makespan.
        case Schedule::interleaved:
            return double(p - 1) / double(v * m + p - 1);
        // Qi et al. 2023, section 3.1: ZB-H1's bubble is (p-1)(T_F + T_B - T_W), ZB-H2's
        // (p-1)(T_F + T_B - 2T_W), zero when the three are equal. Both assume enough micro-batches.
        case Schedule::zb_h1:
            return share(warm_up_wait(p, m, (p - 1) * (kTf + kTb - kTw)), work);
        case Schedule::zb_h2:
            return share(warm_up_wait(p, m, (p - 1) * (kTf + kTb - 2 * kTw)), work);
        // DeepSeek-V3 report, Table 2: (p/2-1)(F&B + B - 3W), B a whole backward (T_B + T_W).
        // The slot model measures (p/2-1) T_F, which is Table 2's expression with F&B = B + W
        // (the forward hidden under its paired backward); with F&B = F + B it would be twice
        // that. We use what the simulation reproduces (tests/engine/pipeline_test.cpp).
        case Schedule::dualpipe: {
            const double fb = kTb + kTw, whole_b = kTb + kTw;
            return share((p / 2 - 1) * (fb + whole_b - 3 * kTw), work);
        }
        default:
            return bubble_fraction(p, m);  // GPipe eq.; 1F1B (Narayanan et al. 2021)
    }
}

}  // namespace engine
