// The cost model's figures as JSON, with the stable keys README lists (bytes as integers,
// fractions as plain numbers): what `numbers --format json` prints and what the article page's
// tables and explorable figures carry.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "engine/report.hpp"
#include "render/inputs/config_values.hpp"

namespace render {

nlohmann::ordered_json report_json(const engine::Report& r);

// --tokens, a whole run's length (15T, 300B, 2e12): numbers' flag, and the problem with its
// text, if any (naming the flag: story::problem_line writes its line).
extern const FlagSpec kTokensFlag;
std::optional<engine::Problem> tokens_problem(const std::string& tokens);
// The run's steps, days and GPU-hours for tokens (none when tokens is empty; checked first).
std::optional<engine::RunTotals> run_of(const engine::Report& r, int gpus,
                                        const std::string& tokens);
// What `numbers --format json` prints: the model's shape as counted under "model", the report,
// and the run's totals under "run" with --tokens.
nlohmann::ordered_json numbers_json(const engine::Config& c, const engine::Report& r,
                                    const std::string& tokens);

// How it writes a figure: bytes as a whole number, other numbers without a fraction when
// integral ("16", not "16.0").
std::int64_t json_bytes(double bytes);
nlohmann::ordered_json json_number(double v);

}  // namespace render
