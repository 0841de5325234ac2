// The cost model's figures as JSON, with the stable keys README lists (bytes as integers,
// fractions as plain numbers): what `numbers --format json` prints and what the article page's
// tables and explorable figures carry.
#pragma once
#include <nlohmann/json.hpp>

#include "engine/report.hpp"

namespace render {

nlohmann::ordered_json report_json(const engine::Report& r);

}  // namespace render
