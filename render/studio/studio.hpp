// The studio's pages (see server.hpp): one storyboard's film served as routes on an httplib
// server, reloaded on change. run_studio binds it to a socket; fuzz/studio_direct.hpp hands it
// requests from memory.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <utility>

#include "render/draw/fonts.hpp"
#include "render/studio/film_source.hpp"
#include "render/studio/frames.hpp"
#include "render/studio/host_check.hpp"
#include "render/studio/server.hpp"
#include "render/studio/soundtrack.hpp"
#include "render/sys/cancel.hpp"
#include "story/time/moment.hpp"

namespace httplib {
class Server;
struct Request;
struct Response;
}  // namespace httplib

namespace render {

// The pages the studio serves (fuzz/make_dicts.cpp lists them for fuzz_studio too).
inline constexpr const char* kStudioPages[] = {
    "/",          "/film.json", "/frame.png", "/numbers.json",
    "/still.png", "/still.svg", "/audio.m4a", "/events"};

class Studio {
  public:
    // The storyboard of o, not loaded yet; its sound goes to speech_cache().
    Studio(const StudioOptions& o, const Fonts& fonts);

    FilmSource& source() { return source_; }
    // The first load; false when it has errors.
    bool load();
    // Its pages on svr: each route, the Host check and the replies to errors. Called only
    // through svr, so a test or a fuzz target may hand it requests without a socket
    // (fuzz/studio_direct.hpp).
    void routes(httplib::Server& svr);
    // Which Host headers to answer, once the port is bound (no request comes before).
    void answer_hosts(HostCheck hosts) { hosts_.emplace(std::move(hosts)); }
    // Reloads on change until stopped; wakes the event streams on every change.
    void watch(const CancelToken& cancel, httplib::Server& svr);

  private:
    std::shared_ptr<const StudioFilm> film() const;
    story::Moment moment(const httplib::Request& req, const StudioFilm& f) const;
    std::pair<int, int> size(const httplib::Request& req, const StudioFilm& f) const;
    void frame(const httplib::Request& req, httplib::Response& res);
    void numbers(const httplib::Request& req, httplib::Response& res);
    void still(const httplib::Request& req, httplib::Response& res, const std::string& ext);
    void events(httplib::Response& res);
    void audio(httplib::Response& res);
    std::string event_text() const;
    nlohmann::ordered_json audio_json() const;
    void changed();  // a new film, errors or sound: wakes the event streams

    StudioOptions options_;
    std::optional<HostCheck> hosts_;
    FilmSource source_;
    FrameDrawer frames_;
    const Fonts& fonts_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::uint64_t generation_ = 1;  // counts changes of film, errors and sound
    bool stopping_ = false;
    Soundtrack sound_;  // last: its thread calls changed()
};

}  // namespace render
