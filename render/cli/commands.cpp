// Exit codes shared by every subcommand: runtime failures are 1, interruptions 130.
#include "render/cli/commands.hpp"

#include <iostream>

#include "render/sys/error.hpp"
#include "render/sys/interrupt.hpp"

namespace render {

int run_guarded(const std::function<int()>& run) {
    try {
        return run();
    } catch (const Interrupted&) {
        std::cerr << "\nshardreel: interrupted; partial outputs removed\n";
        return 130;
    } catch (const SystemError& e) {
        std::cerr << "shardreel: error: " << e.what() << "\n";
        return 1;
    }
}

}  // namespace render
