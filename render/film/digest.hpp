// XXH3-128 digests for the segment cache: of bytes, and of what a chapter draws (every frame's
// display list streamed field by field, in binary), so a key changes exactly when a frame would.
#pragma once
#include <memory>
#include <string>

#include "story/chapter.hpp"
#include "story/scene.hpp"

namespace render {

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
