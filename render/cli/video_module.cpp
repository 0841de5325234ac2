// Loading the video module; see video_module.hpp.
#include "render/cli/video_module.hpp"

#include <dlfcn.h>

#include <string>
#include <string_view>

#include "render/sys/error.hpp"
#include "render/sys/files.hpp"

namespace render {

namespace {

// The module, loaded on first use and never unloaded: its code runs until exit. RTLD_NOW reports
// a missing symbol here, not halfway through a render.
void* video_module() {
    static void* const module = [] {
        const std::string path = beside_binary("shardreel-video.so");
        void* m = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!m)
            throw SystemError("cannot load the video module " + path + ": " + dlerror() +
                              " (build it with scripts/build.sh, or run ./shardreel)");
        return m;
    }();
    return module;
}

template <class F>
F* entry(const char* name) {
    void* symbol = dlsym(video_module(), name);
    if (!symbol)
        throw SystemError("the video module " + beside_binary("shardreel-video.so") + " has no " +
                          name + ": " + dlerror());
    return reinterpret_cast<F*>(symbol);
}

}  // namespace

bool wants_video_commands(int argc, const char* const* argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--help" || arg == "-h") return true;
        if (arg.empty() || arg.front() == '-') continue;  // --version and the like
        return arg == "jobs" || arg == "page" || arg == "studio";
    }
    return argc <= 1;  // no command: the usage lists them all
}

void add_video_commands(CLI::App& app, int& exit_code) {
    entry<void(CLI::App&, int&)>("shardreel_add_video_commands")(app, exit_code);
}

int render_in_module(RenderCall& call) { return entry<int(RenderCall&)>("shardreel_render")(call); }

}  // namespace render
