// The studio's film, reloaded on change; see film_source.hpp.
#include "render/studio/film_source.hpp"

#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <sstream>
#include <thread>

#include "render/inputs/storyboard_inputs.hpp"

namespace render {

FilmSource::FilmSource(std::string path, VideoOverrides video, std::string lang)
    : path_(std::move(path)), video_(std::move(video)), lang_(std::move(lang)) {}

FilmSource::Stamp FilmSource::stamp(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return {path};
    return {path, static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec,
            static_cast<std::int64_t>(st.st_size), static_cast<std::uint64_t>(st.st_ino)};
}

// The storyboard and the files it names (music, recorded takes, sound cues), relative to its
// folder.
std::vector<FilmSource::Stamp> FilmSource::watched(const story::Storyboard* board) const {
    std::vector<Stamp> out{stamp(path_)};
    if (!board) return out;
    const std::filesystem::path dir = std::filesystem::path(path_).parent_path();
    auto add = [&](const std::string& file) {
        if (!file.empty()) out.push_back(stamp((dir / file).string()));
    };
    add(board->video.music.file);
    for (const story::ChapterSpec& c : board->chapters)
        for (const story::Beat& b : c.beats) {
            add(b.take);
            add(b.sound);
        }
    return out;
}

bool FilmSource::refresh() {
    const auto look = [&] {
        const std::lock_guard lock(mutex_);
        return watched(state_.film ? &state_.film->board : nullptr);
    };
    const std::vector<Stamp> now = look();
    if (now == seen_) return false;
    // A save written in place can be caught half-written: load once the files have stood still
    // for 30 ms (the next look tries again).
    if (!seen_.empty()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        if (look() != now) return false;
    }
    std::ostringstream err;
    auto board = load_storyboard(path_, err, lang_);
    story::Video video;
    if (board) {
        if (auto bad = resolve_video(board->video, video_, video)) {
            err << "shardreel: error: " << *bad << "\n";
            board.reset();
        }
    }
    const std::lock_guard lock(mutex_);
    if (board) {
        story::FilmTime time(board->chapters, video.fps);
        state_.film = std::make_shared<const StudioFilm>(
            StudioFilm{std::move(*board), video, std::move(time)});
        state_.errors.clear();
    } else {
        state_.errors = err.str();
    }
    seen_ = remember(now, watched(state_.film ? &state_.film->board : nullptr));
    ++state_.version;
    return true;
}

std::vector<FilmSource::Stamp> FilmSource::remember(const std::vector<Stamp>& looked,
                                                    std::vector<Stamp> after) {
    for (Stamp& s : after)
        for (const Stamp& l : looked)
            if (l.path == s.path) s = l;
    return after;
}

FilmState FilmSource::state() const {
    const std::lock_guard lock(mutex_);
    return state_;
}

}  // namespace render
