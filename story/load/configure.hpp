// After parsing: every configuration built from its layers (the built-in defaults, defaults:,
// the chapter's), `parallel: plan` resolved by the planner, and what needs the final
// configuration checked (the chapter's, its fixed beats' set:) or read (explore:).
#pragma once
#include <vector>

#include "story/load/chapters.hpp"
#include "story/load/config.hpp"

namespace story::load {

// sb.defaults from `defaults`, then each chapter's configuration over it, into sb.chapters.
void configure(Context& ctx, Storyboard& sb, const ConfigLayer& defaults,
               std::vector<ChapterDraft> chapters);

}  // namespace story::load
