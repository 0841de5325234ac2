// What a chapter changes from the film's defaults, named on screen under its title (issue 33:
// nothing changes silently): "Here: ZeRO-3 · without FlashAttention · selective recompute".
#pragma once
#include <string>
#include <vector>

#include "engine/config.hpp"
#include "story/text/locale.hpp"

namespace story {

// Each setting `here` changes from `film`, as a viewer reads it ("ZeRO-3", "16 GPUs", "GPipe
// schedule"), the model first, then in the settings table's order. A setting that follows from
// one named before it is not named again: a GPU's own links, a model's own shape.
std::vector<std::string> changed_settings(const engine::Config& film, const engine::Config& here,
                                          const Locale& l);
// "Here: " and the changes joined by " · " (a no-break space before the dot, so a line ends after
// it; in a right-to-left language each change kept a unit: list_separator); "" when nothing
// changed.
std::string settings_note(const engine::Config& film, const engine::Config& here, const Locale& l);

}  // namespace story
