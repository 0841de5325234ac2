// Pieces the strategy chapters (tensor_parallel, pipeline_bubble, activation_checkpointing)
// share: forward/backward shades, legends, text colour
// chosen for contrast on a filled shape.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "engine/report.hpp"
#include "story/layout.hpp"

namespace story {

Color mix(Color a, Color b, double k);  // k = 0: a, k = 1: b
// The palette's text or background colour, whichever contrasts more with fill.
Color readable_on(const Palette& p, Color fill);

// STYLE.md "Timeline": forward and backward passes in two shades of one colour.
struct PassColors {
    Color forward, backward;
};
PassColors pass_colors(const Palette& p);

struct LegendEntry {
    std::string label;
    Color color;
    bool hatched = false;
};
// A row of swatches with labels from (x, baseline); returns the right edge.
double add_legend(Scene& s, const Palette& p, const TextMetrics& m, double x, double baseline,
                  const std::vector<LegendEntry>& entries, double alpha);

// Rounds a counting integer during a morph: the engine's endpoints, whole numbers between.
std::string count_text(double from, double to, double u);

}  // namespace story
