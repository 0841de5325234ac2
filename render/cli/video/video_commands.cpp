// The video module's entry point: the commands that need libav, registered on the binary's CLI
// once render/cli/video_module.cpp has loaded build/shardreel-video.so.
#include "render/cli/commands.hpp"

extern "C" void shardreel_add_video_commands(CLI::App& app, int& exit_code) {
    render::add_render_command(app, exit_code);
    render::add_jobs_command(app, exit_code);
    render::add_page_command(app, exit_code);
    render::add_studio_command(app, exit_code);
}
