// Write-then-rename for directories (PNG sequences, a contact sheet's stills): files go into a
// hidden temporary directory beside the destination, which replaces it only when complete.
#pragma once
#include <string>

#include "render/sys/temp_file.hpp"

namespace render {

class TempDir {
  public:
    // Creates `.<name>.tmp-<pid>-<counter>/` beside final_path. Throws SystemError.
    explicit TempDir(const std::string& final_path);
    ~TempDir();  // removes the temporary directory and its files unless committed
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::string& path() const { return name_.path(); }
    // Renames the temporary directory to final_path; an existing final_path is moved aside first
    // and removed after the rename (restored if the rename fails). Throws SystemError.
    void commit();
    void discard() noexcept;

  private:
    TempFile name_;  // reserves the unique sibling name and performs the rename
    bool done_ = false;
};

}  // namespace render
