// A chapter's beats over time: which caption shows, and which engine configuration is on
// screen (the states before and after each `set:` beat, with the morph progress between them).
#pragma once
#include <string>
#include <vector>

#include "engine/config.hpp"
#include "story/storyboard/storyboard.hpp"
#include "story/time/easing.hpp"

namespace story {

struct Cue {
    double start = 0, end = 0;
    std::string text;
    bool operator==(const Cue&) const = default;
};

// Where the parameter morph stands at time t: from states()[from] to states()[to], u in [0, 1].
struct Morph {
    int from = 0, to = 0;
    double u = 1;
};

class Timeline {
  public:
    // Applies each beat's `set:` cumulatively to spec.config (the loader validated them).
    explicit Timeline(const ChapterSpec& spec);

    const std::vector<engine::Config>& states() const { return states_; }
    Morph morph_at(double t, Ease e = Ease::in_out_cubic) const;
    // Time the k-th state starts appearing (0 for the base state).
    double state_start(int k) const { return starts_[k]; }
    double state_over(int k) const { return overs_[k]; }  // its morph's length (0 for the base)
    const std::vector<Cue>& cues() const { return cues_; }
    const Cue* cue_at(double t) const;  // the caption showing at t, or nullptr

  private:
    std::vector<engine::Config> states_;
    std::vector<double> starts_, overs_;
    std::vector<Cue> cues_;
};

}  // namespace story
