// Pieces the data-parallel chapters (ring_allreduce, zero_stages, fsdp_gather) share: card
// boxes, which ranks a long row shows, memory stacks from engine figures, and chunk tokens.
#pragma once
#include <string>
#include <vector>

#include "story/draw/arrange.hpp"
#include "story/draw/box.hpp"
#include "story/draw/cards.hpp"
#include "story/draw/motion.hpp"
#include "story/scene.hpp"
#include "story/text_metrics.hpp"
#include "story/theme.hpp"
#include "story/timeline.hpp"
#include "story/vocab.hpp"

namespace story {

// Old names kept for the chapters not yet on story/draw/ (see story/draw/draw.hpp); retire them
// as each chapter converts: lerp_box -> lerp, row_box -> row_cell, add_all -> add_items,
// box_exit -> exit_point, morph_value -> ChapterBase::value_at, states_stack ->
// ChapterBase::memory_at.
inline Box lerp_box(const Box& a, const Box& b, double u) { return lerp(a, b, u); }

// Box i of `count` equal boxes spread across [left, right], each at most max_w wide.
inline Box row_box(int count, int i, double left, double right, double top, double h, double max_w,
                   double gap) {
    return row_cell({left, top, right - left, h}, count, i, gap, max_w);
}

// One card's memory, bottom to top as STYLE.md stacks it: weights, gradients, optimizer,
// activations.
std::vector<MemorySegment> states_stack(const Palette& p, double weights, double gradients,
                                        double optimizer, double activations);

inline void add_all(Scene& s, std::vector<Item> items, double alpha) {
    add_items(s, std::move(items), alpha);
}

inline Point along(Point a, Point b, double u) { return lerp(a, b, u); }

inline Point box_exit(const Box& b, Point to, double margin) { return exit_point(b, to, margin); }

inline double morph_value(const Timeline& timeline, double t,
                          const std::vector<double>& per_state) {
    return morphed(timeline.morph_at(t), per_state);
}

}  // namespace story
