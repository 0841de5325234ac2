// Small file helpers shared by the commands: read whole files, write text atomically, and find
// the installation's shipped files.
#pragma once
#include <optional>
#include <string>

#include "render/sys/temp_file.hpp"

namespace render {

// The file's bytes, or std::nullopt with `error` set to strerror.
std::optional<std::string> read_file(const std::string& path, std::string& error);
// Writes content into file's temporary path (not committed). Throws SystemError naming the
// final path, with the system's reason (a full disk).
void write_temp(const TempFile& file, const std::string& content);
// Creates path's directory and a file in it (removed again): throws SystemError ("cannot write
// <path>: Read-only file system") when path could not be written.
void check_writable(const std::string& path);
// Writes through a temporary file in the same directory, then renames. Throws SystemError.
void write_file_atomic(const std::string& path, const std::string& content);
// Creates the parent directory of path if missing. Throws SystemError.
void ensure_parent_dir(const std::string& path);

// The running binary's path (/proc/self/exe), or empty when the system does not say.
std::string running_binary();
// The file name in the running binary's directory (build/shardreel -> build/NAME), wherever it
// is run from: where the binary finds its modules.
std::string beside_binary(const std::string& name);
// A file named in another (a cue or take in a storyboard): relative to that file's folder,
// unless absolute.
std::string beside_file(const std::string& anchor, const std::string& name);

// Repository root for shipped files (fonts/, storyboards/): $SHARDREEL_HOME, else the source tree.
std::string home_dir();

}  // namespace render
