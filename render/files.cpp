// File helpers; see files.hpp.
#include "render/files.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "render/commands.hpp"
#include "render/error.hpp"
#include "render/temp_file.hpp"

namespace render {

std::optional<std::string> read_file(const std::string& path, std::string& error) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {  // an ifstream opens a directory as empty
        error = std::strerror(EISDIR);
        return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = std::strerror(errno);
        return std::nullopt;
    }
    std::ostringstream buf;
    buf << in.rdbuf();
    return buf.str();
}

void ensure_parent_dir(const std::string& path) {
    const auto dir = std::filesystem::path(path).parent_path();
    if (dir.empty()) return;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw SystemError("cannot create directory " + dir.string() + ": " + ec.message());
}

void write_file_atomic(const std::string& path, const std::string& content) {
    TempFile tmp(path);
    {
        std::ofstream out(tmp.path(), std::ios::binary);
        out << content;
        out.flush();
        if (!out) throw SystemError("cannot write " + path + ": " + std::strerror(errno));
    }
    tmp.commit();
}

std::string home_dir() {
    if (const char* home = std::getenv("SHARDREEL_HOME"); home && *home) return home;
    return SHARDREEL_SOURCE_DIR;
}

}  // namespace render
