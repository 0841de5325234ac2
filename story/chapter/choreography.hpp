// A chapter's choreography on its beats. A kind authors its motion in seconds of its default
// duration and names the moments that begin each step (KindInfo::phases); a beat that shows a
// phase (`show: spread`) pins that moment to the beat's start, and every authored time between two
// pinned moments is spread evenly between them, so the picture follows the lines whatever voice
// or wording times them. With nothing pinned it is the old even scaling (`fit: stretch`, or a
// chapter shorter than the kind's default) or the kind's own pace (`fit: tail`).
#pragma once
#include <utility>
#include <vector>

#include "story/storyboard/storyboard.hpp"

namespace story {

struct KindInfo;

class Choreography {
  public:
    // kind may be null (an unknown kind: plain scaling).
    Choreography(const ChapterSpec& spec, const KindInfo* kind);
    // Seconds from the chapter start of a time authored for the kind's default duration.
    double at(double authored) const;
    // Seconds an authored stretch starting at `from` lasts here.
    double span(double from, double length) const { return at(from + length) - at(from); }
    // The authored time drawn `seconds` from the chapter start (at's inverse).
    double authored(double seconds) const;
    bool pinned() const { return pinned_; }  // whether a beat shows one of the kind's phases

  private:
    std::vector<std::pair<double, double>> anchors_;  // (authored, seconds), both increasing
    bool pinned_ = false;
};

}  // namespace story
