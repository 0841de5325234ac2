// XXH3-128 digests for the segment cache: of bytes, and of what a chapter draws (every frame's
// display list streamed field by field, in binary), so a key changes exactly when a frame would.
#pragma once
#include <memory>
#include <optional>
#include <string>

#include "story/chapter.hpp"
#include "story/scene.hpp"

namespace render {

// XXH3-128 of bytes as 32 lowercase hex digits.
std::string xxh3_128_hex(const std::string& bytes);
// XXH3-128 of a file's bytes, read in blocks (music may be large); nullopt with error set to the
// system's reason when it cannot be read.
std::optional<std::string> file_digest(const std::string& path, std::string& error);

// Scenes fed one after another: equal sequences give equal digests and, short of an XXH3-128
// collision, unequal ones differ (lists and strings are length-prefixed, variants tagged; -0 is
// hashed as 0, which it equals and draws as).
class SceneDigest {
  public:
    SceneDigest();
    ~SceneDigest();
    SceneDigest(const SceneDigest&) = delete;
    SceneDigest& operator=(const SceneDigest&) = delete;

    void add(const story::Scene& scene);
    // 32 lowercase hex digits of every scene added so far.
    std::string hex();

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// The digest of the chapter's frames 0..frames-1 at fps: the display lists a segment draws.
std::string frames_digest(const story::Chapter& chapter, int frames, int fps);

}  // namespace render
