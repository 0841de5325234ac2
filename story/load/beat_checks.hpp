// The checks on one chapter's beat times and `set:` sequence, which need its configuration: the
// loader runs them on chapters whose times are all written out, timed() on every chapter.
#pragma once
#include <string>

#include "story/storyboard/diagnostics.hpp"
#include "story/storyboard/storyboard.hpp"

namespace story {

// Beats inside their chapter at distinct times (in time order, whatever the order of
// spec.beats), the configuration each `set:` leads to, and, when no error was found, every
// explore: combination through them. `where` names the chapter in messages ("in chapter 'bytes'").
void check_beats(const ChapterSpec& spec, const std::string& file, const std::string& where,
                 Diagnostics& errors);

}  // namespace story
