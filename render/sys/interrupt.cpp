// Signal flag for graceful interruption.
#include "render/sys/interrupt.hpp"

#include <csignal>

namespace render {

namespace {
volatile std::sig_atomic_t g_interrupted = 0;
extern "C" void on_signal(int) { g_interrupted = 1; }
}  // namespace

void install_interrupt_handlers() {
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
}

bool interrupted() { return g_interrupted != 0; }

}  // namespace render
