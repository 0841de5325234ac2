// Exit codes shared by every subcommand: runtime failures are 1, interruptions 130.
#include "render/cli/commands.hpp"

#include <iostream>

#include "render/sys/cancel.hpp"
#include "render/sys/error.hpp"

namespace render {

int run_guarded(const std::function<int()>& run) {
    try {
        return run();
    } catch (const Interrupted& stop) {
        if (stop.reason != StopReason::signal) {  // a failure's own error is what escapes
            std::cerr << "shardreel: error: stopped early; partial outputs removed\n";
            return 1;
        }
        std::cerr << "\nshardreel: interrupted; partial outputs removed\n";
        return 130;
    } catch (const SystemError& e) {
        std::cerr << "shardreel: error: " << e.what() << "\n";
        return 1;
    }
}

}  // namespace render
