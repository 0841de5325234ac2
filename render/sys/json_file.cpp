// Reading cache records; see json_file.hpp.
#include "render/sys/json_file.hpp"

#include "render/sys/files.hpp"

namespace render {

std::optional<nlohmann::json> read_json_object(const std::string& path) {
    std::string error;
    const auto text = read_file(path, error);
    if (!text) return std::nullopt;
    auto record = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
    if (record.is_discarded() || !record.is_object()) return std::nullopt;
    return record;
}

}  // namespace render
