// The fsdp_gather chapter's film: engine::fsdp_plan's events as steps on screen. The model's
// layers are drawn as at most kFsdpMaxSlices slices; slice by slice the weights are gathered,
// used and freed in the forward pass, then in reverse gathered again, used, their gradients
// reduce-scattered and freed, each step carrying the plan's resident bytes before and after it.
#pragma once
#include <vector>

#include "engine/fsdp.hpp"
#include "story/chapter/choreography.hpp"

namespace story {

// Authored seconds (of fsdp_gather's default duration): the film starts at kFsdpFilmAt, each
// step of a slice lasting as long as its kFsdp... constant; the backward pass of kFsdpMaxSlices
// slices (most models have that many layers or more) starts at kFsdpBackwardAt.
inline constexpr int kFsdpMaxSlices = 8;
inline constexpr double kFsdpFilmAt = 5.5;
inline constexpr double kFsdpGather = 0.45, kFsdpForward = 0.3, kFsdpReshard = 0.2;
inline constexpr double kFsdpGatherBack = 0.4, kFsdpBackward = 0.55, kFsdpScatter = 0.4;
inline constexpr double kFsdpReshardBack = 0.15;
inline constexpr double kFsdpBackwardAt =
    kFsdpFilmAt + kFsdpMaxSlices * (kFsdpGather + kFsdpForward + kFsdpReshard);

enum class FsdpStep { gather, compute, scatter, reshard };

// One step of one slice on screen (seconds from the chapter start), with the plan's resident
// bytes before and after it.
struct FilmStep {
    FsdpStep step = FsdpStep::gather;
    bool backward = false;
    int slice = 0;
    double start = 0, duration = 0;
    double live_before = 0, live_after = 0;
    double end() const { return start + duration; }
};

// Where the film stands at t.
struct FilmAt {
    const FilmStep* phase = nullptr;  // nullptr: before the film or after it
    double u = 0;                     // progress through the phase, 0..1 (linear)
    bool done = false;
};

// What one card holds of the slice at work beyond its shards, by shard: each cell of the gathered
// weights and of the layer's unsharded gradients, from 0 (absent) to 1 (held). The gathered
// weights fill as the shards arrive, the gradients as the backward pass computes them; the
// reduce-scatter sends them away and resharding frees the weights.
struct Held {
    std::vector<double> weights, grads;
    double weight_share() const;  // of the full layer's weights, 0..1
    double grad_share() const;    // of its unsharded gradients, 0..1
};

// When, within a gather (0..1), the shard from rank j reaches rank i: shards fly at one speed, so
// nearer cards' arrive first, the farthest at the end.
double fsdp_arrival(int i, int j, int shards);
Held fsdp_held(const FilmAt& f, int rank, int shards);

class FsdpFilm {
  public:
    // The plan's film, its authored times placed on the chapter's beats by `choreography`.
    FsdpFilm(const engine::FsdpPlan& plan, const Choreography& choreography);

    int slices() const { return slices_; }
    int per_slice() const { return per_slice_; }  // layers a slice stands for
    FilmAt at(double t) const;

  private:
    std::vector<FilmStep> steps_;
    int slices_ = 1, per_slice_ = 1;
};

}  // namespace story
