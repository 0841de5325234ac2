// The order in which layout_3d turns its highlight to each kind of group on a rack, and the
// phases a storyboard's beats name to begin them (`show: pp`). A rack of dp x tp x pp turns to
// TP groups, stages and replicas, then (where a `set:` re-slices) TP groups and replicas again;
// a rack with context- or expert-parallel groups turns to each axis once, in rank order.
#pragma once
#include <vector>

#include "engine/config.hpp"
#include "story/chapter/chapter.hpp"
#include "story/vocab/rack_vocab.hpp"

namespace story {

struct RackTurn {
    double start;  // authored seconds of layout_3d's default duration
    RackFocus focus;
    const char* name = "";  // the phase that begins it ("" for the rack on its own)
};

// The turns of a chapter whose states are `states`, the rack on its own first.
std::vector<RackTurn> rack_turns(const std::vector<engine::Config>& states);

// Whether any of turns [0, upto] turns to f.
bool turned_to(const std::vector<RackTurn>& turns, int upto, RackFocus f);

// Every phase a layout_3d chapter may show, in kind order; and those of a chapter's states.
std::vector<Phase> rack_turn_phases();
std::vector<Phase> rack_turn_phases(const std::vector<engine::Config>& states);

}  // namespace story
