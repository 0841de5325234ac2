// See loaf.hpp.
#include "story/vocab/loaf.hpp"

#include <algorithm>

#include "story/draw/arrange.hpp"

namespace story {

namespace {
constexpr double kSliceGap = 2, kPieceGap = 2, kRadius = 2, kFaint = 0.18;
}  // namespace

void add_loaf_inset(Scene& s, const Palette& p, const Box& box, int slices, int pieces,
                    const LoafHolds& holds, double alpha) {
    if (alpha <= 0 || slices < 1 || pieces < 1) return;
    for (int g = 0; g < slices; ++g) {
        const Box slice = column_cell(box, slices, g, kSliceGap);
        for (int j = 0; j < pieces; ++j) {
            const Box piece = row_cell(slice, pieces, j, pieces > 1 ? kPieceGap : 0);
            s.add(filled(piece, kRadius, p.weights), alpha * (holds(g, j) ? 1 : kFaint));
        }
    }
}

int loaf_stage(int g, int slices, int stages, int chunks) {
    const int parts = std::max(1, stages * chunks);
    const int chunk = std::clamp(g * parts / std::max(1, slices), 0, parts - 1);
    return chunk % std::max(1, stages);
}

}  // namespace story
