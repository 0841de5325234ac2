// render and jobs live in the video module (shardreel-video.so beside the binary), loaded only
// when the command line asks for one of them or for the full help, so that still, check,
// numbers, sheet and schema start without mapping libav and its 100+ shared libraries.
#pragma once

namespace CLI {
class App;
}

namespace render {

// Whether argv names a video command (render, jobs) or asks for the full list (no command,
// --help, -h): what decides if the module is loaded.
bool wants_video_commands(int argc, const char* const* argv);

// Loads the module and registers its commands on app. Throws SystemError naming the module's
// path and dlerror()'s reason when it is missing or broken.
void add_video_commands(CLI::App& app, int& exit_code);

}  // namespace render
