// A chapter's `beats:`: each beat's start (`at:` a time, after, mark:NAME), its line (`say:`,
// bookmarks taken out), `set:`, `over:`, `gap:`, `take:` and `sound:`.
#pragma once
#include <string>

#include "story/chapter/chapter.hpp"
#include "story/load/fields.hpp"
#include "story/storyboard/storyboard.hpp"

namespace story::load {

// Adds the beats of `beats:` to spec (file order), checking bookmarks and recorded takes; the
// times and set: sequence are checked once the chapter's configuration is known (configure.hpp).
void read_beats(Context& ctx, const Entry& e, int fps, const KindInfo* kind,
                const std::string& where, ChapterSpec& spec);

}  // namespace story::load
