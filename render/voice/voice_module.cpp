// Loading the voice module; see voice_module.hpp.
#include "render/voice/voice_module.hpp"

#include <dlfcn.h>

#include <string>

#include "render/sys/error.hpp"
#include "render/sys/files.hpp"

namespace render {

namespace {

voice::Synthesizer& load() {
    const std::string path = beside_binary("shardreel-voice.so");
    // Never unloaded: the engines keep their state until exit.
    void* module = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!module)
        throw SystemError("cannot load the voice module " + path + ": " + dlerror() +
                          " (build it with scripts/build.sh, or run ./shardreel)");
    using Entry = voice::Synthesizer* (*)();
    const auto entry = reinterpret_cast<Entry>(dlsym(module, "shardreel_voice_synthesizer"));
    if (!entry) throw SystemError("the voice module " + path + " has no synthesizer: " + dlerror());
    return *entry();
}

}  // namespace

voice::Synthesizer& voice_synthesizer() {
    static voice::Synthesizer& synthesizer = load();  // a failed load is tried again next call
    return synthesizer;
}

}  // namespace render
