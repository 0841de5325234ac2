// One way to stop early. A CancelToken is tripped by SIGINT/SIGTERM (the process's token), by a
// failing worker (the token of its batch) or by whoever owns it; frame loops and sinks poll it
// with check(), which throws Interrupted, so every early stop unwinds and aborts sinks the same
// way, removing partial outputs.
#pragma once
#include <atomic>

namespace render {

enum class StopReason { none, signal, failure };

// Thrown at a cancellation point; run_guarded turns a signal's into exit 130.
struct Interrupted {
    StopReason reason = StopReason::signal;
};

class CancelToken {
  public:
    // A token of its own, also tripped whenever `parent` is.
    constexpr explicit CancelToken(const CancelToken* parent = nullptr) : parent_(parent) {}
    CancelToken(const CancelToken&) = delete;
    CancelToken& operator=(const CancelToken&) = delete;

    // Trips the token; the first reason stays. Async-signal-safe (a lock-free atomic).
    void cancel(StopReason why) noexcept;
    // Why the token, or else its parent, was tripped; none while work may go on.
    StopReason reason() const noexcept;
    bool cancelled() const noexcept { return reason() != StopReason::none; }
    // A cancellation point: throws Interrupted{reason()} once tripped.
    void check() const;

  private:
    const CancelToken* parent_;
    std::atomic<StopReason> reason_{StopReason::none};
    static_assert(std::atomic<StopReason>::is_always_lock_free);
};

// The process's token, the parent of every other; install_interrupt_handlers() makes SIGINT and
// SIGTERM trip it.
CancelToken& process_token();
void install_interrupt_handlers();

}  // namespace render
