// `chapters:`: each chapter's id, kind, titles, duration, fit, narration, beats and figure, its
// configuration and explore: kept as written for configure.hpp to apply once parsing is done.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "story/chapter/chapter.hpp"
#include "story/load/config.hpp"
#include "story/load/fields.hpp"
#include "story/storyboard/storyboard.hpp"

namespace story::load {

// A chapter as parsed, before its configuration is known.
struct ChapterDraft {
    ChapterSpec spec;  // config still the built-in default: configure() builds it
    ConfigLayer config;
    const KindInfo* kind = nullptr;  // nullptr for a missing or unknown kind
    std::string where;               // "in chapter 'bytes'" (or "in chapter 2" without an id)
    // explore:, on the chapter and on its beats (with the beat's number), read on the chapter's
    // configuration once it is known.
    std::optional<Entry> explore;
    std::vector<std::pair<Entry, int>> beat_explores;
    // The diagnostics found when the beats were read, and the figure: where the beats' checks
    // and explore:'s are put.
    std::size_t beats_found = 0, figure_found = 0;
};

// The chapters of `chapters:` in the film's video (its fps and narration).
std::vector<ChapterDraft> read_chapters(Context& ctx, const Entry& e, const Video& video);

}  // namespace story::load
