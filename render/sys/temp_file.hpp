// Write-then-rename: every output is written to a hidden temporary file in its destination
// directory and renamed into place only when complete, so no file is ever half-written.
#pragma once
#include <string>

namespace render {

class TempFile {
  public:
    // Reserves `.<name>.tmp-<pid>-<counter>` beside final_path; creates nothing yet.
    explicit TempFile(std::string final_path);
    ~TempFile();  // removes the temporary file unless committed
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;

    const std::string& path() const { return temp_path_; }
    const std::string& final_path() const { return final_path_; }
    // Renames the temporary file to final_path; throws SystemError (with strerror) on failure.
    void commit();
    // Removes the temporary file now (if it exists); later commit() is not allowed.
    void discard() noexcept;

  private:
    std::string final_path_, temp_path_;
    bool done_ = false;
};

}  // namespace render
