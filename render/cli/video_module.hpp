// jobs, page, studio and the making of films live in the video module (shardreel-video.so beside
// the binary), loaded only when the command line asks for jobs, page or studio or for the full
// help, or when `render` has a film to make: still, check, numbers, sheet and schema, and a
// render that finds every film as it left it, start without mapping libav and its 100+ shared
// libraries.
#pragma once
#include <functional>
#include <vector>

#include "render/draw/fonts.hpp"
#include "render/film/director.hpp"
#include "render/film/film_job.hpp"

namespace CLI {
class App;
}

namespace render {

// Whether argv names a command of the module (jobs, page, studio) or asks for the full list (no
// command, --help, -h): what decides if the module is loaded at start.
bool wants_video_commands(int argc, const char* const* argv);

// Loads the module and registers its commands on app. Throws SystemError naming the module's
// path and dlerror()'s reason when it is missing or broken.
void add_video_commands(CLI::App& app, int& exit_code);

// The part of `render` the module does: each film given its sound (none with no_audio), checked
// for --audio-only, and rendered (render_films) into `reports`.
struct RenderCall {
    std::vector<FilmJob>& films;  // loaded, outputs named
    const Fonts& fonts;
    const BatchOptions& batch;
    bool no_audio = false;
    std::function<void(const Progress&)> on_progress;
    std::vector<RenderReport> reports;
};
// Loads the module (once) and makes the films: 0, or 2 when a sound file is bad or --audio-only
// cannot write a film (diagnostics printed). Throws what render_films throws, and SystemError
// when the module cannot be loaded.
int render_in_module(RenderCall& call);

}  // namespace render
