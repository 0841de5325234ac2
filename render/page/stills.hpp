// The article page's figures drawn through a cache: a figure is the SVG of one scene in the dark
// and the light theme, kept in <cache>/figures/<key>.{dark,light}.svg, where the key is the
// XXH3-128 of both scenes' display lists (render/film/digest), the size and the drawing code's
// digest. A figure whose scenes did not change is read back, not drawn.
#pragma once
#include <string>

#include "render/draw/fonts.hpp"
#include "story/storyboard/storyboard.hpp"

namespace render {

struct FigureSvgs {
    std::string dark, light;
};

class FigureCache {
  public:
    FigureCache(std::string dir, const Fonts& fonts) : dir_(std::move(dir)), fonts_(fonts) {}

    // The chapter at t seconds, at the video's size.
    FigureSvgs figure(const story::ChapterSpec& spec, story::Video video, double t);
    int drawn() const { return drawn_; }
    int reused() const { return reused_; }

  private:
    std::string dir_;
    const Fonts& fonts_;
    int drawn_ = 0, reused_ = 0;
};

}  // namespace render
