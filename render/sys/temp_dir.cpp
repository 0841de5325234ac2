// TempDir: see temp_dir.hpp.
#include "render/sys/temp_dir.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "render/sys/error.hpp"

namespace render {

namespace fs = std::filesystem;

TempDir::TempDir(const std::string& final_path) : name_(final_path) {
    std::error_code ec;
    fs::create_directory(path(), ec);
    if (ec) throw SystemError("cannot create directory " + path() + ": " + ec.message());
}

TempDir::~TempDir() { discard(); }

void TempDir::commit() {
    std::error_code ec;
    if (!fs::exists(name_.final_path(), ec)) {
        name_.commit();
        done_ = true;
        return;
    }
    TempFile aside(name_.final_path());
    if (std::rename(name_.final_path().c_str(), aside.path().c_str()) != 0)
        throw SystemError("cannot replace " + name_.final_path() + ": " + std::strerror(errno));
    try {
        name_.commit();
    } catch (...) {
        std::rename(aside.path().c_str(), name_.final_path().c_str());
        throw;
    }
    done_ = true;
    fs::remove_all(aside.path(), ec);
}

void TempDir::discard() noexcept {
    if (done_) return;
    std::error_code ec;
    fs::remove_all(path(), ec);
    name_.discard();
    done_ = true;
}

}  // namespace render
