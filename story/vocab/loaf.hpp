// The model as a loaf of layer slices, the picture the title and fsdp_gather draw it with, small
// enough to sit beside a GPU in any chapter: each strategy is a way of cutting it (data parallel
// copies it whole to every GPU, ZeRO cuts each slice's state across the GPUs, tensor parallel
// cuts every slice lengthwise, a pipeline cuts the loaf into consecutive chunks), and the pieces
// a GPU holds are drawn in the weights' colour (or in the colours of the parts it holds), the
// rest faint. A loaf is one Group, so the layout sweep checks its box against the text around it.
#pragma once
#include <functional>
#include <vector>

#include "engine/config.hpp"
#include "engine/layout3d.hpp"
#include "story/draw/box.hpp"
#include "story/scene/scene.hpp"
#include "story/scene/theme.hpp"

namespace story {

// Whether the GPU holds piece `piece` of slice `slice`.
using LoafHolds = std::function<bool(int slice, int piece)>;
// The colours of the parts a GPU holds of piece `piece` of slice `slice`, drawn side by side;
// none: not held (faint).
using LoafPaint = std::function<std::vector<Color>(int slice, int piece)>;

// A loaf of `slices` slices stacked top down, each cut across into `pieces` pieces.
struct LoafCut {
    int slices = 1, pieces = 1;
};

// The loaf in box; pieces too narrow to draw apart are drawn as one faint slice with the held
// ones on it, each at least kLoafMinHeld px wide.
inline constexpr double kLoafMinHeld = 6;
void add_loaf(Scene& s, const Palette& p, const Box& box, LoafCut cut, const LoafPaint& paint,
              double alpha);
// The same, the held pieces in the weights' colour.
void add_loaf_inset(Scene& s, const Palette& p, const Box& box, int slices, int pieces,
                    const LoafHolds& holds, double alpha);

// How a model of `layers` layers is drawn as at most max_slices slices, each standing for the
// same whole number of layers (the last for what is left).
struct LoafSlicing {
    int slices = 1, per_slice = 1;
};
inline constexpr int kLoafMaxSlices = 8;
LoafSlicing loaf_slicing(int layers, int max_slices = kLoafMaxSlices);
// The slices of each state's model, at most kLoafMaxSlices.
std::vector<int> loaf_slices(const std::vector<engine::Config>& states);

// The GPU (pipeline stage) holding slice g of a loaf of `slices` cut into stages x chunks
// consecutive chunks: chunk c on stage c mod stages (interleaved: each stage holds `chunks` of
// them, Narayanan et al. 2021).
int loaf_stage(int g, int slices, int stages, int chunks);

// What rank r of a 3D layout holds of a loaf cut into its tp pieces: its own piece of every
// slice, and with `stages` only the slices of its pipeline stage (of pp).
LoafHolds rank_holds(const engine::RankPlace& r, int slices, int pp, bool stages);

// What a data-parallel rank of n at ZeRO stage `zero` holds: with nothing sharded the whole loaf
// (one piece a slice, in the weights' colour); else every slice cut into n, its own piece in the
// colours of the sharded parts (optimizer state, gradients, weights as the stage reaches them)
// and the others in the weights' colour while the weights are whole (faint from stage 3).
LoafCut zero_cut(int slices, int n, int zero);
LoafPaint zero_paint(const Palette& p, int rank, int zero);

}  // namespace story
