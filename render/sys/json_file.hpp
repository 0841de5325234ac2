// Cache records read back: a JSON object from a file, or nothing when it is missing or damaged.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace render {

// The file's JSON object; nullopt when the file is unreadable, not JSON or not an object.
std::optional<nlohmann::json> read_json_object(const std::string& path);

}  // namespace render
