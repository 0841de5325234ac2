// A keyframed value: value_at(t) hits every keyframe exactly and eases between them.
#pragma once
#include <vector>

#include "story/easing.hpp"

namespace story {

class Track {
  public:
    struct Key {
        double t = 0, value = 0;
        Ease ease = Ease::in_out_cubic;  // easing of the segment that ends at this key
    };

    explicit Track(double initial = 0) : keys_{{0, initial, Ease::linear}} {}
    Track& to(double t, double value, Ease e = Ease::in_out_cubic);  // keys in increasing t
    double value_at(double t) const;

  private:
    std::vector<Key> keys_;
};

}  // namespace story
