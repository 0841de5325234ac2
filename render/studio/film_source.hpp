// The film the studio shows: its storyboard loaded, timed and sized for the preview, loaded again
// whenever a file it reads (the storyboard, its music) changes on disk. A load that fails keeps
// the last good film and holds the errors, in the words `check` prints.
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "render/inputs/video_options.hpp"
#include "story/storyboard/storyboard.hpp"
#include "story/time/film_time.hpp"

namespace render {

struct StudioFilm {
    story::Storyboard board;
    story::Video video;  // the storyboard's, the preview size applied by whoever draws
    story::FilmTime time;
};

struct FilmState {
    std::shared_ptr<const StudioFilm> film;  // the last good load; null if none ever was
    std::string errors;                      // of the latest load; empty when it was good
    std::uint64_t version = 0;               // counts loads that changed film or errors
};

class FilmSource {
  public:
    // The storyboard at path in `lang` (empty: its own language), with video's overrides.
    FilmSource(std::string path, VideoOverrides video, std::string lang = {});

    // Loads the storyboard if a watched file changed since the last call (the first call always
    // loads). True when the state changed.
    bool refresh();
    FilmState state() const;

    // What a watched file looked like: a save changes its time, its size or (written to a new
    // file and renamed) its inode.
    struct Stamp {
        std::string path;
        std::int64_t mtime_ns = -1, size = -1;
        std::uint64_t inode = 0;
        bool operator==(const Stamp&) const = default;
    };
    // The stamps to compare the next look against after a load: the files the loaded film
    // watches, each as it was seen before the load when it was looked at then (`looked`), so a
    // save that lands while the load reads is seen by the next look, not taken as loaded.
    static std::vector<Stamp> remember(const std::vector<Stamp>& looked, std::vector<Stamp> after);

  private:
    static Stamp stamp(const std::string& path);
    std::vector<Stamp> watched(const story::Storyboard* board) const;

    std::string path_;
    VideoOverrides video_;
    std::string lang_;
    std::vector<Stamp> seen_;
    mutable std::mutex mutex_;
    FilmState state_;
};

}  // namespace render
