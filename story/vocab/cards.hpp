// A row of GPU cards (story/vocab/vocab.hpp's gpu_card) as the data-parallel chapters draw it:
// which ranks a long row shows, the gap mark standing for the others, label sizes for narrow cards,
// one overflow label per row, and the chunks of data that travel between cards.
#pragma once
#include <string>
#include <vector>

#include "story/draw/box.hpp"
#include "story/scene/scene.hpp"
#include "story/scene/text_metrics.hpp"
#include "story/scene/theme.hpp"

namespace story {

// The ranks a row of at most max_shown cards draws for n ranks: all of them, or the first
// max_shown - 2, a gap (kGapRank) and the last, so GPU 63 still closes the row.
inline constexpr int kGapRank = -1;
std::vector<int> shown_ranks(int n, int max_shown);

// The "…" drawn in the gap's slot of a row.
Text gap_mark(const Box& slot, Color color);

// Cards narrower than kNarrowCard name themselves in the small role, others in the label role.
inline constexpr double kNarrowCard = 130;
double card_label_size(double card_w);

// gpu_card items without the overflow label: a row of identical cards labels one of them.
std::vector<Item> without_spill_label(std::vector<Item> items, Color spill);

// A chunk of data in flight: a small rounded tile, labelled when the label fits.
void add_token(Scene& s, const Palette& p, const TextMetrics& m, Point centre, double size,
               Color fill, const std::string& label, double alpha);

}  // namespace story
