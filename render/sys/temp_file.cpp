// Temporary sibling files for atomic output: unique per process and per object, so parallel
// renders into one directory never collide.
#include "render/sys/temp_file.hpp"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "render/sys/error.hpp"

namespace render {
namespace {

std::string temp_sibling(const std::string& final_path) {
    static std::atomic<unsigned> counter{0};
    const std::filesystem::path p(final_path);
    // Appends rather than operator+ chains, which trip GCC 12's -Wrestrict false positive.
    std::string name = ".";
    name.append(p.filename().string())
        .append(".tmp-")
        .append(std::to_string(::getpid()))
        .append("-")
        .append(std::to_string(counter++));
    return (p.parent_path() / name).string();
}

}  // namespace

TempFile::TempFile(std::string final_path)
    : final_path_(std::move(final_path)), temp_path_(temp_sibling(final_path_)) {}

TempFile::~TempFile() { discard(); }

void TempFile::commit() {
    if (done_) {
        throw SystemError("cannot commit " + final_path_ + ": already committed or discarded");
    }
    if (std::rename(temp_path_.c_str(), final_path_.c_str()) != 0) {
        throw SystemError("cannot rename " + temp_path_ + " to " + final_path_ + ": " +
                          std::strerror(errno));
    }
    done_ = true;
}

void TempFile::discard() noexcept {
    if (done_) return;
    std::remove(temp_path_.c_str());
    done_ = true;
}

}  // namespace render
