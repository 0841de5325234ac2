// The chapters' shared drawing vocabulary in one include: boxes (box.hpp), rows/columns/grids
// (arrange.hpp), text roles and text columns (text.hpp), animations as values (motion.hpp),
// colours derived from the palette (color.hpp), legend rows (legend.hpp).
#pragma once
#include "story/draw/arrange.hpp"
#include "story/draw/box.hpp"
#include "story/draw/color.hpp"
#include "story/draw/legend.hpp"
#include "story/draw/motion.hpp"
#include "story/draw/text.hpp"
