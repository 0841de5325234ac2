// One cancellation path: tokens and their parents, the signals that trip the process's token,
// the worker pool that trips its batch's token on a failure, and a sink that polls it.
#include "render/sys/cancel.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include "render/sinks/video/gif_sink.hpp"
#include "render/sys/parallel.hpp"
#include "tests/catch.hpp"
#include "tests/render/cli.hpp"
#include "tests/render/test_scene.hpp"

using render::CancelToken;
using render::Interrupted;
using render::StopReason;

namespace {

StopReason reason_thrown(const CancelToken& token) {
    try {
        token.check();
    } catch (const Interrupted& stop) {
        return stop.reason;
    }
    return StopReason::none;
}

// Spins at cancellation points until the token stops it; false if it never did within 10 s.
bool stopped_by(const CancelToken& token) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
        if (reason_thrown(token) != StopReason::none) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return false;
}

}  // namespace

TEST_CASE("a token stops with its parent, and the first reason stays", "[cancel]") {
    CancelToken parent, child(&parent);
    CHECK_FALSE(child.cancelled());
    CHECK(reason_thrown(child) == StopReason::none);
    parent.cancel(StopReason::signal);
    CHECK(child.reason() == StopReason::signal);
    CHECK(reason_thrown(child) == StopReason::signal);
    child.cancel(StopReason::failure);  // its own reason now comes first
    CHECK(child.reason() == StopReason::failure);
    parent.cancel(StopReason::failure);
    CHECK(parent.reason() == StopReason::signal);

    CancelToken lone, under(&lone);
    under.cancel(StopReason::failure);
    CHECK_FALSE(lone.cancelled());  // a child never trips its parent
}

TEST_CASE("SIGINT and SIGTERM trip the process's token", "[cancel]") {
    for (const int sig : {SIGINT, SIGTERM}) {
        INFO("signal " << sig);
        const pid_t pid = fork();
        REQUIRE(pid >= 0);
        if (pid == 0) {
            render::install_interrupt_handlers();
            const bool before = render::process_token().cancelled();
            std::raise(sig);
            const CancelToken child(&render::process_token());
            _exit(!before && child.reason() == StopReason::signal ? 0 : 1);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        REQUIRE(WIFEXITED(status));
        CHECK(WEXITSTATUS(status) == 0);
    }
}

TEST_CASE("a failing worker stops the others through the batch's token and its error wins",
          "[cancel]") {
    const CancelToken caller;
    std::atomic<int> started{0}, stopped{0};
    std::atomic<bool> second_running{false};
    const auto task = [&](std::size_t i, const CancelToken& batch) {
        ++started;
        if (i == 0) {
            while (!second_running) std::this_thread::yield();
            throw std::runtime_error("boom");
        }
        second_running = true;
        if (stopped_by(batch)) ++stopped;
        batch.check();  // rethrows the batch's Interrupted, which the pool drops
    };
    try {
        render::run_parallel(2, 100, caller, task);
        FAIL("the failure was not rethrown");
    } catch (const std::runtime_error& e) {
        CHECK(std::string(e.what()) == "boom");
    }
    CHECK(started == 2);  // no task started after the failure
    CHECK(stopped == 1);
    CHECK_FALSE(caller.cancelled());  // the next batch runs

    std::atomic<int> ran{0};
    render::run_parallel(2, 10, caller, [&](std::size_t, const CancelToken&) { ++ran; });
    CHECK(ran == 10);
}

TEST_CASE("a tripped caller's token starts no task and stops running ones with its reason",
          "[cancel]") {
    CancelToken caller;
    caller.cancel(StopReason::signal);
    std::atomic<int> ran{0};
    render::run_parallel(2, 10, caller, [&](std::size_t, const CancelToken&) { ++ran; });
    CHECK(ran == 0);

    CancelToken live;
    try {
        render::run_parallel(1, 10, live, [&](std::size_t, const CancelToken& batch) {
            live.cancel(StopReason::signal);  // as the signal handler would, mid-task
            batch.check();
        });
        FAIL("the task was not stopped");
    } catch (const Interrupted& stop) {
        CHECK(stop.reason == StopReason::signal);
    }
}

TEST_CASE("a GIF sink stops at its token in finish() and leaves no file", "[cancel]") {
    render_test::TempDir dir;
    const std::string path = (dir.path / "stopped.gif").string();
    CancelToken token;
    render::GifSink sink(render_test::shipped_fonts());
    sink.begin({path, 160, 90, 10, &token});
    for (int f = 0; f < 3; ++f) sink.write(render_test::test_scene(story::ThemeName::dark));
    token.cancel(StopReason::signal);
    CHECK_THROWS_AS(sink.finish(), Interrupted);
    CHECK(std::filesystem::is_empty(dir.path));
}
