// See loaf.hpp.
#include "story/vocab/loaf.hpp"

#include <algorithm>

#include "story/draw/arrange.hpp"

namespace story {

namespace {
constexpr double kSliceGap = 2, kPieceGap = 2, kRadius = 2, kFaint = 0.18;
// Pieces narrower than this (with their gap) are drawn on one faint slice.
constexpr double kMinPiece = 5;

// The held piece's colours side by side in cell.
void add_piece(std::vector<Item>& out, const Box& cell, const std::vector<Color>& colours,
               double alpha) {
    const int n = static_cast<int>(colours.size());
    for (int k = 0; k < n; ++k) {
        const Box stripe = row_cell(cell, n, k, 0);
        out.push_back({filled(stripe, std::min(kRadius, stripe.w / 2), colours[k]), alpha});
    }
}

// A slice of narrow pieces: the slice faint, each held piece on it kLoafMinHeld px wide at least.
void add_narrow(std::vector<Item>& out, const Palette& p, const Box& slice, int pieces,
                const std::function<std::vector<Color>(int)>& piece, double alpha) {
    out.push_back({filled(slice, kRadius, p.weights), alpha * kFaint});
    const double w = slice.w / pieces, held = std::max(w, kLoafMinHeld);
    for (int j = 0; j < pieces; ++j) {
        const std::vector<Color> colours = piece(j);
        if (colours.empty()) continue;
        const double x =
            std::clamp(slice.x + (j + 0.5) * w - held / 2, slice.x, slice.right() - held);
        add_piece(out, Box{x, slice.y, held, slice.h}, colours, alpha);
    }
}
}  // namespace

void add_loaf(Scene& s, const Palette& p, const Box& box, LoafCut cut, const LoafPaint& paint,
              double alpha) {
    if (alpha <= 0 || cut.slices < 1 || cut.pieces < 1) return;
    Group loaf;
    const bool narrow = box.w / cut.pieces < kMinPiece;
    for (int g = 0; g < cut.slices; ++g) {
        const Box slice = column_cell(box, cut.slices, g, kSliceGap);
        const auto piece = [&](int j) { return paint(g, j); };
        if (narrow) {
            add_narrow(loaf.items, p, slice, cut.pieces, piece, alpha);
            continue;
        }
        for (int j = 0; j < cut.pieces; ++j) {
            const Box cell = row_cell(slice, cut.pieces, j, cut.pieces > 1 ? kPieceGap : 0);
            const std::vector<Color> colours = piece(j);
            if (colours.empty())
                loaf.items.push_back({filled(cell, kRadius, p.weights), alpha * kFaint});
            else
                add_piece(loaf.items, cell, colours, alpha);
        }
    }
    s.add(std::move(loaf));
}

void add_loaf_inset(Scene& s, const Palette& p, const Box& box, int slices, int pieces,
                    const LoafHolds& holds, double alpha) {
    add_loaf(
        s, p, box, {slices, pieces},
        [&](int g, int j) {
            return holds(g, j) ? std::vector<Color>{p.weights} : std::vector<Color>{};
        },
        alpha);
}

LoafSlicing loaf_slicing(int layers, int max_slices) {
    const int most = std::max(1, std::min(max_slices, layers));
    const int per = (std::max(1, layers) + most - 1) / most;
    return {(std::max(1, layers) + per - 1) / per, per};
}

std::vector<int> loaf_slices(const std::vector<engine::Config>& states) {
    std::vector<int> out;
    for (const engine::Config& c : states) out.push_back(loaf_slicing(c.model.layers).slices);
    return out;
}

int loaf_stage(int g, int slices, int stages, int chunks) {
    const int parts = std::max(1, stages * chunks);
    const int chunk = std::clamp(g * parts / std::max(1, slices), 0, parts - 1);
    return chunk % std::max(1, stages);
}

LoafHolds rank_holds(const engine::RankPlace& r, int slices, int pp, bool stages) {
    return [r, slices, pp, stages](int g, int piece) {
        return piece == r.tp && (!stages || loaf_stage(g, slices, pp, 1) == r.pp);
    };
}

LoafCut zero_cut(int slices, int n, int zero) { return {slices, zero > 0 ? std::max(1, n) : 1}; }

LoafPaint zero_paint(const Palette& p, int rank, int zero) {
    std::vector<Color> own;  // the sharded parts, in the stack's order
    if (zero >= 3) own.push_back(p.weights);
    if (zero >= 2) own.push_back(p.gradients);
    own.push_back(p.optimizer);
    const std::vector<Color> whole{p.weights};
    return [own, whole, rank, zero](int, int piece) {
        if (zero <= 0) return whole;
        if (piece == rank) return own;
        return zero >= 3 ? std::vector<Color>{} : whole;
    };
}

}  // namespace story
