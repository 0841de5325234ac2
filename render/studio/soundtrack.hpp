// The studio's sound: the film's narration, takes, cues and music as one M4A, made on a thread
// of its own after each good load, through the cache's sound segments (a reload encodes only the
// chapters whose sound changed; the speech cache already holds every line spoken).
#pragma once
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "render/draw/fonts.hpp"
#include "render/studio/film_source.hpp"
#include "render/sys/cancel.hpp"

namespace render {

struct Track {
    std::uint64_t version = 0;  // of the film it is the sound of
    std::string m4a;            // empty: that film makes no sound
    std::string error;          // why it could not be made
};

class Soundtrack {
  public:
    // `made` runs on the sound's thread after each track is ready.
    Soundtrack(std::string cache_dir, const Fonts& fonts, const CancelToken& cancel,
               std::function<void()> made);
    ~Soundtrack();  // waits for the track being made (a cancelled token cuts it short)
    Soundtrack(const Soundtrack&) = delete;
    Soundtrack& operator=(const Soundtrack&) = delete;

    // Makes the sound of `film` (loaded as `version`) next, replacing any not yet begun.
    void make(std::shared_ptr<const StudioFilm> film, std::uint64_t version);
    std::optional<Track> latest() const;  // the newest track made, if any

  private:
    void run();
    Track made_for(const StudioFilm& film, std::uint64_t version);

    std::string cache_dir_;
    const Fonts& fonts_;
    CancelToken cancel_;
    std::function<void()> made_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::shared_ptr<const StudioFilm> next_;
    std::uint64_t next_version_ = 0;
    std::optional<Track> latest_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace render
