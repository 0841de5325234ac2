// The studio's pages; see studio.hpp.
#include "render/studio/studio.hpp"

#include <httplib.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <thread>

#include "engine/report.hpp"
#include "render/inputs/numbers_json.hpp"
#include "render/inputs/storyboard_inputs.hpp"
#include "render/page/facts.hpp"
#include "render/sinks/still.hpp"
#include "render/studio/studio_page.hpp"
#include "render/studio/timeline.hpp"
#include "render/sys/error.hpp"
#include "render/sys/files.hpp"
#include "render/sys/temp_dir.hpp"
#include "story/chapter/chapter.hpp"
#include "story/text/format.hpp"
#include "story/uses/explore.hpp"

namespace render {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxHeaderBytes = 4096;  // all request headers together; more is 431
constexpr std::size_t kMaxBodyBytes = 0;       // the studio takes no request bodies; any is 413

// A reply's error: its status and a line of text saying what was expected.
struct BadRequest {
    int status;
    std::string message;
};

std::optional<double> parse_seconds(const std::string& text) {
    double v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

}  // namespace

Studio::Studio(const StudioOptions& o, const Fonts& fonts)
    : options_(o),
      source_(o.storyboard, {}, o.lang),
      frames_(fonts),
      fonts_(fonts),
      sound_(speech_cache(), fonts, process_token(), [this] { changed(); }) {}

bool Studio::load() {
    source_.refresh();
    const FilmState s = source_.state();
    if (s.errors.empty()) sound_.make(s.film, s.version);
    return s.errors.empty();
}

void Studio::changed() {
    const std::lock_guard lock(mutex_);
    ++generation_;
    changed_.notify_all();
}

// The film's sound as /film.json and the events give it: the version it sounds, or null while
// none is made; `none` when the film makes no sound, `error` when it could not be made.
nlohmann::ordered_json Studio::audio_json() const {
    const auto track = sound_.latest();
    if (!track) return nullptr;
    nlohmann::ordered_json out{{"version", track->version}, {"none", track->m4a.empty()}};
    if (!track->error.empty()) out["error"] = track->error;
    return out;
}

void Studio::audio(httplib::Response& res) {
    const auto track = sound_.latest();
    if (!track || track->m4a.empty())
        throw BadRequest{404, track ? "this film makes no sound" : "the sound is being made"};
    res.set_header("Cache-Control", "no-store");
    res.set_content(track->m4a, "audio/mp4");
}

std::shared_ptr<const StudioFilm> Studio::film() const {
    auto f = source_.state().film;
    if (!f) throw BadRequest{503, "the storyboard has not loaded yet: see /film.json's errors"};
    return f;
}

// ?at=ID@TIME (as `still --at`) or ?t=SECONDS into the film; neither: the film's first frame.
story::Moment Studio::moment(const httplib::Request& req, const StudioFilm& f) const {
    story::Moment at;
    if (req.has_param("at")) {
        if (auto bad = story::resolve_at(f.board, f.time, req.get_param_value("at"), at))
            throw BadRequest{400, *bad};
        return at;
    }
    if (!req.has_param("t")) return at;
    const std::string text = req.get_param_value("t");
    const auto t = parse_seconds(text);
    const double end = f.time.seconds(f.time.frames());
    if (!t || *t < 0 || *t > end)
        throw BadRequest{400, "t expects seconds into the film, 0 to " + story::format_sig3(end) +
                                  ", got '" + text + "'"};
    return story::moment_at(f.time, *t);
}

// The preview's size: ?size=WxH (the limits of --size), else --size, else the film's fitted
// into 960x540.
std::pair<int, int> Studio::size(const httplib::Request& req, const StudioFilm& f) const {
    const std::string asked = req.has_param("size") ? req.get_param_value("size") : options_.size;
    if (asked.empty()) {
        const double scale = std::min({1.0, 960.0 / f.video.width, 540.0 / f.video.height});
        const auto even = [&](int v) { return std::max(2, static_cast<int>(v * scale) / 2 * 2); };
        return {even(f.video.width), even(f.video.height)};
    }
    story::Video v;
    if (auto bad = resolve_video(f.video, {"", asked, 0}, v)) throw BadRequest{400, *bad};
    return {v.width, v.height};
}

void Studio::frame(const httplib::Request& req, httplib::Response& res) {
    const auto f = film();
    const story::Moment at = moment(req, *f);
    const auto [w, h] = size(req, *f);
    res.set_header("Cache-Control", "no-store");
    res.set_content(frames_.png(f, at, w, h), "image/png");
}

void Studio::numbers(const httplib::Request& req, httplib::Response& res) {
    const auto f = film();
    const story::Moment at = moment(req, *f);
    const story::ChapterSpec& spec = f->board.chapters[at.chapter];
    const engine::Config config = story::config_at(spec, at.t, f->video.fps);
    const Facts facts = chapter_facts(spec.kind, config, story::Locale(f->video.lang),
                                      story::figures_drawn(spec, at.t, f->video.fps),
                                      story::later_figures_drawn(spec, at.t));
    nlohmann::ordered_json stats = nlohmann::ordered_json::array();
    for (const Stat& s : facts.stats)
        stats.push_back({{"key", s.key}, {"label", s.label}, {"text", s.text}, {"value", s.value}});
    const nlohmann::ordered_json out{
        {"chapter", spec.id},
        {"t", at.t},
        {"stats", stats},
        {"maths", facts.maths},
        {"numbers", numbers_json(facts.shown, engine::analyze(facts.shown), "")}};
    res.set_content(out.dump(), "application/json");
}

// A full-size still, as `still` writes it, offered as a download named as `still` names it.
void Studio::still(const httplib::Request& req, httplib::Response& res, const std::string& ext) {
    const auto f = film();
    const story::Moment at = moment(req, *f);
    const story::ChapterSpec& spec = f->board.chapters[at.chapter];
    TempDir scratch((fs::temp_directory_path() / "shardreel-studio").string());
    const std::string path = scratch.path() + "/still" + ext;
    render_still(spec, f->video, at.t, path, fonts_);
    std::string error;
    auto bytes = read_file(path, error);
    if (!bytes) throw SystemError("cannot read back " + path + ": " + error);
    const std::string name = fs::path(f->board.file).stem().string() + "-" + spec.id + "-" +
                             std::to_string(at.frame) + "f" + ext;
    res.set_header("Content-Disposition", "attachment; filename=\"" + name + "\"");
    res.set_content(std::move(*bytes), ext == ".png" ? "image/png" : "image/svg+xml");
}

std::string Studio::event_text() const {
    const FilmState s = source_.state();
    const nlohmann::ordered_json data{
        {"version", s.version}, {"errors", errors_json(s.errors)}, {"audio", audio_json()}};
    return "event: film\ndata: " + data.dump() + "\n\n";
}

// Server-Sent Events: the state now, then each change; a comment every 15 s keeps proxies and
// the browser from timing the stream out.
void Studio::events(httplib::Response& res) {
    res.set_header("Cache-Control", "no-store");
    auto seen = std::make_shared<std::uint64_t>(0);
    res.set_chunked_content_provider(
        "text/event-stream", [this, seen](std::size_t, httplib::DataSink& sink) {
            std::unique_lock lock(mutex_);
            if (*seen != 0)
                changed_.wait_for(lock, std::chrono::seconds(15),
                                  [&] { return stopping_ || generation_ != *seen; });
            if (stopping_) return false;
            const std::uint64_t now = generation_;
            lock.unlock();
            const std::string text = now == *seen ? std::string(": still here\n\n") : event_text();
            *seen = now;
            return sink.write(text.data(), text.size());
        });
}

void Studio::routes(httplib::Server& svr) {
    svr.set_payload_max_length(kMaxBodyBytes);
    svr.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
        if (auto why = hosts_->refuse(req.has_header("Host"), req.get_header_value("Host"))) {
            res.status = 403;
            res.set_content("shardreel: error: " + *why + "\n", "text/plain");
            return httplib::Server::HandlerResponse::Handled;
        }
        std::size_t bytes = 0;
        for (const auto& [name, value] : req.headers) bytes += name.size() + value.size() + 4;
        if (bytes > kMaxHeaderBytes) {
            res.status = 431;
            res.set_content("request headers over " + std::to_string(kMaxHeaderBytes) + " bytes\n",
                            "text/plain");
            return httplib::Server::HandlerResponse::Handled;
        }
        if (req.has_header("Transfer-Encoding") ||
            (req.has_header("Content-Length") && req.get_header_value("Content-Length") != "0")) {
            res.status = 413;
            res.set_content("the studio takes no request body\n", "text/plain");
            return httplib::Server::HandlerResponse::Handled;
        }
        return httplib::Server::HandlerResponse::Unhandled;
    });
    svr.set_exception_handler(
        [](const httplib::Request&, httplib::Response& res, std::exception_ptr error) {
            try {
                std::rethrow_exception(error);
            } catch (const BadRequest& bad) {
                res.status = bad.status;
                res.set_content("shardreel: error: " + bad.message + "\n", "text/plain");
            } catch (const std::exception& e) {
                res.status = 500;
                res.set_content(std::string("shardreel: error: ") + e.what() + "\n", "text/plain");
            } catch (...) {
                res.status = 500;
                res.set_content("shardreel: error\n", "text/plain");
            }
        });
    // Whatever is not a page of the studio's: 404 naming what is, 405 for another method.
    svr.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
        if (res.status != 404 || !res.body.empty()) return;
        std::string pages;
        for (std::size_t i = 0; i < std::size(kStudioPages); ++i)
            pages += (i == 0                             ? ""
                      : i + 1 == std::size(kStudioPages) ? " and "
                                                         : ", ") +
                     std::string(kStudioPages[i]);
        res.set_content(
            "shardreel: error: no page " + req.path + " here: the studio serves " + pages + "\n",
            "text/plain");
    });
    const auto refuse = [](const httplib::Request&, httplib::Response& res) {
        res.status = 405;
        res.set_header("Allow", "GET, HEAD");
        res.set_content("shardreel: error: the studio only answers GET and HEAD\n", "text/plain");
    };
    svr.Post(".*", refuse);
    svr.Put(".*", refuse);
    svr.Patch(".*", refuse);
    svr.Delete(".*", refuse);
    svr.Options(".*", refuse);
    svr.Get("/", [](const httplib::Request&, httplib::Response& res) {
        res.set_content(studio_page(), "text/html; charset=utf-8");
    });
    svr.Get("/film.json", [this](const httplib::Request& req, httplib::Response& res) {
        const FilmState s = source_.state();
        const auto [w, h] = s.film ? size(req, *s.film) : std::pair{0, 0};
        res.set_header("Cache-Control", "no-store");
        nlohmann::ordered_json out = timeline_json(s, w, h);
        out["audio"] = audio_json();
        res.set_content(out.dump(), "application/json");
    });
    svr.Get("/frame.png", [this](const auto& req, auto& res) { frame(req, res); });
    svr.Get("/numbers.json", [this](const auto& req, auto& res) { numbers(req, res); });
    svr.Get("/still.png", [this](const auto& req, auto& res) { still(req, res, ".png"); });
    svr.Get("/still.svg", [this](const auto& req, auto& res) { still(req, res, ".svg"); });
    svr.Get("/events", [this](const httplib::Request&, httplib::Response& res) { events(res); });
    svr.Get("/audio.m4a", [this](const httplib::Request&, httplib::Response& res) { audio(res); });
}

void Studio::watch(const CancelToken& cancel, httplib::Server& svr) {
    while (!cancel.cancelled()) {
        if (source_.refresh()) {
            const FilmState s = source_.state();
            if (s.errors.empty()) sound_.make(s.film, s.version);
            changed();
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    {
        const std::lock_guard lock(mutex_);
        stopping_ = true;
        changed_.notify_all();
    }
    svr.stop();
}

}  // namespace render
