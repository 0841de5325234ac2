// A legend row (STYLE.md colours, one meaning each): swatches with their labels, left to right
// from a baseline, each entry kLegendGap after the last.
#pragma once
#include <string>
#include <vector>

#include "story/scene/scene.hpp"
#include "story/scene/text_metrics.hpp"
#include "story/scene/theme.hpp"

namespace story {

inline constexpr double kLegendGap = 36;  // px between one entry's label and the next swatch

struct LegendEntry {
    std::string label;
    Color color;
    bool hatched = false;  // idle time: hatched in the colour, as the timeline draws it
    double opacity = 1;    // of this entry alone, within the row's alpha (one that fades out)
};
// A row of swatches with labels from (x, baseline); returns the right edge of the last label.
double add_legend(Scene& s, const Palette& p, const TextMetrics& m, double x, double baseline,
                  const std::vector<LegendEntry>& entries, double alpha);

}  // namespace story
