// The legend row the strategy chapters share: swatches with their labels.
#pragma once
#include <string>
#include <vector>

#include "story/layout.hpp"

namespace story {

struct LegendEntry {
    std::string label;
    Color color;
    bool hatched = false;
};
// A row of swatches with labels from (x, baseline); returns the right edge.
double add_legend(Scene& s, const Palette& p, const TextMetrics& m, double x, double baseline,
                  const std::vector<LegendEntry>& entries, double alpha);

}  // namespace story
