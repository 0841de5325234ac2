// `narration:` (the film's under video:, or a chapter's): off, a voice, or a map of its voice,
// pace, pauses, recorded takes and pronunciations, each voice checked to speak its language.
#pragma once
#include "story/load/fields.hpp"
#include "story/storyboard/narration.hpp"

namespace story::load {

// `narration:` over `n` (the film's, for a chapter; each given field replaces its own).
Narration read_narration(Context& ctx, const Entry& e, Narration n, int fps);

}  // namespace story::load
