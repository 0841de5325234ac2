// The studio's pictures: a moment of the film drawn by the painter `still` uses, as the PNG bytes
// `still` writes for that moment and size, with each chapter built once per film and size.
#pragma once
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>

#include "render/draw/fonts.hpp"
#include "render/studio/film_source.hpp"
#include "story/chapter/chapter.hpp"
#include "story/time/moment.hpp"

namespace render {

class FrameDrawer {
  public:
    explicit FrameDrawer(const Fonts& fonts) : fonts_(fonts) {}

    // The PNG of `film` at `at`, `width` x `height`. One picture at a time (Cairo's font faces
    // are shared); a new film drops the chapters built for the old one.
    std::string png(const std::shared_ptr<const StudioFilm>& film, const story::Moment& at,
                    int width, int height);

  private:
    const Fonts& fonts_;
    std::mutex mutex_;
    std::shared_ptr<const StudioFilm> film_;  // the film the chapters below were built from
    std::map<std::tuple<std::size_t, int, int>, std::unique_ptr<story::Chapter>> chapters_;
};

}  // namespace render
