// A directory of the fuzz target's own, in the temporary directory.
#pragma once
#include <unistd.h>

#include <filesystem>
#include <string>

namespace fuzz {

// A new empty directory of this process's in the temporary directory.
inline std::filesystem::path private_dir(const std::string& name) {
    const auto dir =
        std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

}  // namespace fuzz
