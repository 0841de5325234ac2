// A pool of worker threads for one batch of independent tasks.
#pragma once
#include <atomic>
#include <cstddef>
#include <functional>

namespace render {

// Runs task(0..count-1) on `workers` threads; the first exception cancels the rest and is
// rethrown once every thread has stopped.
void run_parallel(int workers, std::size_t count,
                  const std::function<void(std::size_t, const std::atomic<bool>&)>& task);

}  // namespace render
