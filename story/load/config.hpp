// The configuration sections as written (model:, training:, cluster:, parallel:, under defaults:
// or a chapter), read into a ConfigLayer: applied over the layer above once the whole file is
// parsed (configure.hpp), where `parallel: plan` runs the planner.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/presets.hpp"
#include "story/load/fields.hpp"
#include "story/storyboard/storyboard.hpp"

namespace story::load {

struct ConfigLayer {
    // `model: {layers: ..., hidden: ..., heads: ...}` when complete and valid; its context is
    // the configuration's it is applied to.
    std::optional<engine::ModelSpec> shape;
    // `model: NAME`, then each section's keys in the order settings() applies them, each with
    // the position its value's errors are reported at and the diagnostics found before it.
    std::vector<std::pair<Setting, std::size_t>> settings;
    std::optional<SourcePos> plan;  // `parallel: plan`, at its value
    std::size_t end = 0;            // the diagnostics found by the end of the layer
};

// The layer of `fields` (a chapter's entries, or defaults:'s); `where` names it in messages.
ConfigLayer read_config(Context& ctx, const Entries& fields, const std::string& where);
// `defaults:`, whose keys are only the configuration's.
ConfigLayer read_defaults(Context& ctx, const Entry& e);

}  // namespace story::load
