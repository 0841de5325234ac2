// Loading the video module; see video_module.hpp.
#include "render/cli/video_module.hpp"

#include <dlfcn.h>

#include <string>
#include <string_view>

#include "render/sys/error.hpp"
#include "render/sys/files.hpp"

namespace render {

bool wants_video_commands(int argc, const char* const* argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--help" || arg == "-h") return true;
        if (arg.empty() || arg.front() == '-') continue;  // --version and the like
        return arg == "render" || arg == "jobs" || arg == "page" || arg == "studio";
    }
    return argc <= 1;  // no command: the usage lists them all
}

void add_video_commands(CLI::App& app, int& exit_code) {
    const std::string path = beside_binary("shardreel-video.so");
    // Never unloaded: its code runs until exit. RTLD_NOW reports a missing symbol here, not
    // halfway through a render.
    void* module = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!module)
        throw SystemError("cannot load the video module " + path + ": " + dlerror() +
                          " (build it with scripts/build.sh, or run ./shardreel)");
    using Add = void (*)(CLI::App&, int&);
    const auto add = reinterpret_cast<Add>(dlsym(module, "shardreel_add_video_commands"));
    if (!add) throw SystemError("the video module " + path + " has no commands: " + dlerror());
    add(app, exit_code);
}

}  // namespace render
