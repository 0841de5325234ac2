// The FSDP film; see fsdp_film.hpp.
#include "story/chapter/fsdp_film.hpp"

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <stdexcept>
#include <string>

#include "story/vocab/loaf.hpp"

namespace story {

namespace {

constexpr double kFirstArrival = 0.25;  // of a gather, when the nearest shard arrives

double mean(const std::vector<double>& v) {
    return v.empty() ? 0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

const engine::FsdpEvent& event(const engine::FsdpPlan& plan, engine::FsdpOp op, int layer,
                               bool backward) {
    // Reshard appears twice per layer: once after forward, once after backward.
    const engine::FsdpEvent* found = nullptr;
    for (const engine::FsdpEvent& e : plan.events) {
        if (e.op != op || e.layer != layer) continue;
        found = &e;
        if (!backward) break;
    }
    // engine::fsdp_plan has every op for every layer; a plan without one is a programmer error,
    // reported rather than dereferenced (asserts vanish from release builds).
    if (!found) throw std::logic_error("fsdp_plan has no event for layer " + std::to_string(layer));
    return *found;
}

}  // namespace

FsdpFilm::FsdpFilm(const engine::FsdpPlan& plan, const Choreography& choreography) {
    const LoafSlicing slicing = loaf_slicing(plan.layers, kFsdpMaxSlices);
    slices_ = slicing.slices;
    per_slice_ = slicing.per_slice;
    double now = kFsdpFilmAt;  // authored: each step on the beats as the choreography places it
    double live = plan.sharded_states.value;
    const auto add = [&](FsdpStep step, bool back, int slice, double seconds, engine::FsdpOp op) {
        const double after = event(plan, op, slice * per_slice_, back).live_bytes_after.value;
        steps_.push_back({step, back, slice, choreography.at(now), choreography.span(now, seconds),
                          live, after});
        now += seconds;
        live = after;
    };
    using Op = engine::FsdpOp;
    for (int g = 0; g < slices_; ++g) {
        add(FsdpStep::gather, false, g, kFsdpGather, Op::gather);
        add(FsdpStep::compute, false, g, kFsdpForward, Op::forward);
        add(FsdpStep::reshard, false, g, kFsdpReshard, Op::reshard);
    }
    for (int g = slices_ - 1; g >= 0; --g) {
        add(FsdpStep::gather, true, g, kFsdpGatherBack, Op::gather_backward);
        add(FsdpStep::compute, true, g, kFsdpBackward, Op::backward);
        add(FsdpStep::scatter, true, g, kFsdpScatter, Op::reduce_scatter);
        add(FsdpStep::reshard, true, g, kFsdpReshardBack, Op::reshard);
    }
}

double Held::weight_share() const { return mean(weights); }
double Held::grad_share() const { return mean(grads); }

double fsdp_arrival(int i, int j, int shards) {
    if (shards <= 1) return 0;
    return kFirstArrival + (1 - kFirstArrival) * std::abs(i - j) / (shards - 1);
}

Held fsdp_held(const FilmAt& f, int rank, int shards) {
    Held h{std::vector<double>(shards, 0.0), std::vector<double>(shards, 0.0)};
    if (!f.phase) return h;
    const FilmStep& p = *f.phase;
    for (int j = 0; j < shards; ++j) {
        switch (p.step) {
            case FsdpStep::gather:
                h.weights[j] = j == rank || f.u >= fsdp_arrival(rank, j, shards) ? 1 : 0;
                break;
            case FsdpStep::compute:
                h.weights[j] = 1;
                h.grads[j] = p.backward ? f.u : 0;
                break;
            case FsdpStep::scatter:
                h.weights[j] = 1;
                h.grads[j] = 1 - f.u;
                break;
            case FsdpStep::reshard:
                h.weights[j] = 1 - f.u;
                break;
        }
    }
    return h;
}

FilmAt FsdpFilm::at(double t) const {
    if (steps_.empty() || t < steps_.front().start) return {};
    for (const FilmStep& p : steps_)
        if (t < p.end()) return {&p, (t - p.start) / p.duration, false};
    return {nullptr, 1, true};
}

}  // namespace story
