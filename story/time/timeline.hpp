// A chapter's beats over time: which engine configuration is on screen (the states before and
// after each `set:` beat, with the morph progress between them), where each beat's picture rests,
// and which caption shows, on the chapter's own frames (story/time/cue.hpp).
#pragma once
#include <cstddef>
#include <vector>

#include "engine/config.hpp"
#include "story/storyboard/storyboard.hpp"
#include "story/time/cue.hpp"
#include "story/time/easing.hpp"

namespace story {

// Where the parameter morph stands at time t: from states()[from] to states()[to], u in [0, 1].
// Geometry may ease with u; what the frame says (its figures, its settings) is one state's,
// never a blend: the old state's until halfway, the new one's from then (shown()).
struct Morph {
    int from = 0, to = 0;
    double u = 1;
    int shown() const { return u < 0.5 ? from : to; }
};

// The configurations a chapter shows: spec.config, then after each `set:` beat in turn (the
// loader validated them).
std::vector<engine::Config> chapter_states(const ChapterSpec& spec);

class Timeline {
  public:
    // Applies each beat's `set:` cumulatively to spec.config (the loader validated them); frames
    // at `fps`.
    Timeline(const ChapterSpec& spec, int fps);

    const std::vector<engine::Config>& states() const { return states_; }
    Morph morph_at(double t, Ease e = Ease::in_out_cubic) const;
    // The configuration on screen at t: the state whose figures the frame shows (Morph::shown).
    const engine::Config& state_at(double t) const { return states_[morph_at(t).shown()]; }
    // Time the k-th state starts appearing (0 for the base state).
    double state_start(int k) const { return starts_[k]; }
    double state_over(int k) const { return overs_[k]; }  // its morph's length (0 for the base)
    double state_end(int k) const { return starts_[k] + overs_[k]; }  // when it has arrived
    // The chapter frame where beat i's picture rests: half a second after the beat and its morph
    // (`over:`), but before the next beat begins; at least the beat's own frame, at most the
    // chapter's last.
    int rest_frame(std::size_t beat) const { return rests_[beat]; }
    double seconds(int frame) const;                        // of a chapter frame: frame / fps
    const std::vector<Cue>& cues() const { return cues_; }  // on the chapter's frames
    const Cue* cue_at(double t) const;  // the caption on the frame on screen at t, or nullptr

  private:
    int fps_ = 0;
    std::vector<engine::Config> states_;
    std::vector<double> starts_, overs_;
    std::vector<int> rests_;
    std::vector<Cue> cues_;
};

}  // namespace story
