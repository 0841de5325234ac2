// The video module's entry points, called by render/cli/video_module.cpp once it has loaded
// build/shardreel-video.so: the commands that need libav, registered on the binary's CLI, and
// the part of `render` that makes films.
#include <iostream>

#include "render/cli/commands.hpp"
#include "render/cli/video_module.hpp"
#include "render/inputs/video/film_sound.hpp"
#include "render/sinks/sink.hpp"
#include "render/sys/cancel.hpp"

namespace {

// What each film sounds like (nothing with --no-audio); false (diagnostics printed) when a sound
// file is bad, or, with --audio-only, when a film has no sound or the output is not .wav/.m4a.
bool prepare_sound(render::RenderCall& call) {
    bool ok = true;
    for (render::FilmJob& film : call.films) {
        if (!call.no_audio) ok = render::add_sound(film, std::cerr) && ok;
    }
    if (!ok || !call.batch.sound_only) return ok;
    for (const render::FilmJob& film : call.films) {
        const std::string ext = render::lowercase_extension(film.output);
        if (ext != ".wav" && ext != ".m4a") {
            std::cerr << "shardreel: error: --audio-only writes .wav or .m4a, not " << film.output
                      << "\n";
            return false;
        }
        if (!film.sound) {
            std::cerr << "shardreel: error: " << film.board.file
                      << " has no sound to write (no narration, music or sound cues)\n";
            return false;
        }
    }
    return true;
}

}  // namespace

extern "C" void shardreel_add_video_commands(CLI::App& app, int& exit_code) {
    render::add_jobs_command(app, exit_code);
    render::add_page_command(app, exit_code);
    render::add_studio_command(app, exit_code);
}

extern "C" int shardreel_render(render::RenderCall& call) {
    if (!prepare_sound(call)) return 2;
    call.reports = render::render_films(call.films, call.fonts, call.batch, render::process_token(),
                                        call.on_progress);
    return 0;
}
