// Cancellation tokens and the signals that trip the process's; see cancel.hpp.
#include "render/sys/cancel.hpp"

#include <csignal>

namespace render {

namespace {
constinit CancelToken g_process_token;  // constant-initialised: safe in a signal handler
extern "C" void on_signal(int) { g_process_token.cancel(StopReason::signal); }
}  // namespace

void CancelToken::cancel(StopReason why) noexcept {
    StopReason none = StopReason::none;
    reason_.compare_exchange_strong(none, why);
}

StopReason CancelToken::reason() const noexcept {
    const StopReason own = reason_.load();
    if (own != StopReason::none || !parent_) return own;
    return parent_->reason();
}

void CancelToken::check() const {
    if (const StopReason why = reason(); why != StopReason::none) throw Interrupted{why};
}

CancelToken& process_token() { return g_process_token; }

void install_interrupt_handlers() {
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
}

}  // namespace render
