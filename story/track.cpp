// Keyframe interpolation for Track.
#include "story/track.hpp"

#include <cassert>

namespace story {

Track& Track::to(double t, double value, Ease e) {
    assert(keys_.empty() || t >= keys_.back().t);
    keys_.push_back({t, value, e});
    return *this;
}

double Track::value_at(double t) const {
    if (t <= keys_.front().t) return keys_.front().value;
    for (std::size_t i = 1; i < keys_.size(); ++i) {
        const Key& a = keys_[i - 1];
        const Key& b = keys_[i];
        if (t < b.t) return lerp(a.value, b.value, ease(b.ease, (t - a.t) / (b.t - a.t)));
    }
    return keys_.back().value;
}

}  // namespace story
