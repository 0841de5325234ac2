// The worker pool; see parallel.hpp.
#include "render/sys/parallel.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace render {

void run_parallel(int workers, std::size_t count, const CancelToken& cancel,
                  const std::function<void(std::size_t, const CancelToken&)>& task) {
    std::atomic<std::size_t> next{0};
    CancelToken batch(&cancel);
    std::mutex mutex;
    std::exception_ptr error;
    const auto work = [&] {
        for (std::size_t i; !batch.cancelled() && (i = next++) < count;) {
            try {
                task(i, batch);
            } catch (...) {
                // Recorded before the token trips, so the others' Interrupted never wins.
                const std::lock_guard lock(mutex);
                if (!error) error = std::current_exception();
                batch.cancel(StopReason::failure);
            }
        }
    };
    {
        std::vector<std::jthread> threads;
        const std::size_t n = std::min(static_cast<std::size_t>(std::max(workers, 1)), count);
        for (std::size_t w = 1; w < n; ++w) threads.emplace_back(work);
        work();
    }
    if (error) std::rethrow_exception(error);
}

void in_idle_thread(const std::function<void()>& work) {
    std::exception_ptr error;
    std::thread([&] {
        // Linux keeps a nice value per thread (setpriority(2)); if it fails, only time is lost.
        setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 19);
        try {
            work();
        } catch (...) {
            error = std::current_exception();
        }
    }).join();
    if (error) std::rethrow_exception(error);
}

}  // namespace render
