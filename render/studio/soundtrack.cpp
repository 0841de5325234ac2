// The studio's sound; see soundtrack.hpp.
#include "render/studio/soundtrack.hpp"

#include <sstream>

#include "render/film/director.hpp"
#include "render/inputs/video/film_sound.hpp"
#include "render/sys/error.hpp"
#include "render/sys/files.hpp"
#include "render/sys/temp_dir.hpp"

namespace render {

Soundtrack::Soundtrack(std::string cache_dir, const Fonts& fonts, const CancelToken& cancel,
                       std::function<void()> made)
    : cache_dir_(std::move(cache_dir)),
      fonts_(fonts),
      cancel_(&cancel),
      made_(std::move(made)),
      thread_([this] { run(); }) {}

Soundtrack::~Soundtrack() {
    {
        const std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    cancel_.cancel(StopReason::failure);
    wake_.notify_all();
    thread_.join();
}

void Soundtrack::make(std::shared_ptr<const StudioFilm> film, std::uint64_t version) {
    {
        const std::lock_guard lock(mutex_);
        next_ = std::move(film);
        next_version_ = version;
    }
    wake_.notify_all();
}

std::optional<Track> Soundtrack::latest() const {
    const std::lock_guard lock(mutex_);
    return latest_;
}

Track Soundtrack::made_for(const StudioFilm& film, std::uint64_t version) {
    FilmJob job{film.board, film.video, {}, {}};
    std::ostringstream err;
    if (!add_sound(job, err)) return {version, {}, err.str()};
    if (!job.sound) return {version, {}, {}};
    TempDir scratch(cache_dir_ + "/studio-sound");
    job.output = scratch.path() + "/film.m4a";
    BatchOptions batch;
    batch.cache_dir = cache_dir_;
    batch.sound_only = true;
    render_films({job}, fonts_, batch, cancel_, {});
    std::string error;
    auto bytes = read_file(job.output, error);
    if (!bytes) throw SystemError("cannot read back " + job.output + ": " + error);
    return {version, std::move(*bytes), {}};
}

void Soundtrack::run() {
    for (;;) {
        std::shared_ptr<const StudioFilm> film;
        std::uint64_t version = 0;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return stopping_ || next_; });
            if (stopping_) return;
            film = std::move(next_);
            version = next_version_;
        }
        Track track;
        try {
            track = made_for(*film, version);
        } catch (const Interrupted&) {
            return;
        } catch (const std::exception& e) {
            track = {version, {}, e.what()};
        }
        {
            const std::lock_guard lock(mutex_);
            latest_ = std::move(track);
        }
        made_();
    }
}

}  // namespace render
