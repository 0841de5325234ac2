// Small file helpers shared by the commands: read whole files, write text atomically, and find
// the installation's shipped files.
#pragma once
#include <optional>
#include <string>

namespace render {

// The file's bytes, or std::nullopt with `error` set to strerror.
std::optional<std::string> read_file(const std::string& path, std::string& error);
// Writes through a temporary file in the same directory, then renames. Throws SystemError.
void write_file_atomic(const std::string& path, const std::string& content);
// Creates the parent directory of path if missing. Throws SystemError.
void ensure_parent_dir(const std::string& path);

}  // namespace render
