// The model as a loaf of layer slices, the picture the title and fsdp_gather draw it with, small
// enough to sit beside a GPU in any chapter: each strategy is a way of cutting it (tensor parallel
// cuts every slice lengthwise, a pipeline cuts the loaf into consecutive chunks), and the pieces a
// GPU holds are drawn in the weights' colour, the rest faint.
#pragma once
#include <functional>

#include "story/draw/box.hpp"
#include "story/scene/scene.hpp"
#include "story/scene/theme.hpp"

namespace story {

// Whether the GPU holds piece `piece` of slice `slice`.
using LoafHolds = std::function<bool(int slice, int piece)>;

// `slices` slices stacked top down in box, each cut across into `pieces` pieces.
void add_loaf_inset(Scene& s, const Palette& p, const Box& box, int slices, int pieces,
                    const LoafHolds& holds, double alpha);

// The GPU (pipeline stage) holding slice g of a loaf of `slices` cut into stages x chunks
// consecutive chunks: chunk c on stage c mod stages (interleaved: each stage holds `chunks` of
// them, Narayanan et al. 2021).
int loaf_stage(int g, int slices, int stages, int chunks);

}  // namespace story
