// The cost model's figures as JSON, with the stable keys README lists (bytes as integers,
// fractions as plain numbers): what `numbers --format json` prints and what the article page's
// tables and explorable figures carry.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>

#include "engine/report.hpp"

namespace render {

nlohmann::ordered_json report_json(const engine::Report& r);

// How it writes a figure: bytes as a whole number, other numbers without a fraction when
// integral ("16", not "16.0").
std::int64_t json_bytes(double bytes);
nlohmann::ordered_json json_number(double v);

}  // namespace render
