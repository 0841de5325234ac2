// `explore: {PARAM: [values]}` (on a chapter or one of its beats): the values an article page
// offers, each checked on the chapter's configuration, so read once that is known.
#pragma once
#include <vector>

#include "engine/config.hpp"
#include "story/chapter/chapter.hpp"
#include "story/load/fields.hpp"
#include "story/storyboard/storyboard.hpp"

namespace story::load {

// Parameters the kind can set, each value one apply_setting and the cost model accept on
// `config`, at most kMaxExploreVariants combinations.
std::vector<ExploreParam> read_explore(Context& ctx, const Entry& e, const KindInfo* kind,
                                       const engine::Config& config);

}  // namespace story::load
