// A pool of worker threads for one batch of independent tasks.
#pragma once
#include <cstddef>
#include <functional>

#include "render/sys/cancel.hpp"

namespace render {

// Runs task(i, batch) for i in 0..count-1 on `workers` threads. `batch` is a token of this batch,
// a child of `cancel`: the first task to throw trips it (StopReason::failure), so the others stop
// at their next check() and no new task starts; once every thread has stopped, that first
// exception is rethrown. When `cancel` is tripped, no new task starts either.
void run_parallel(int workers, std::size_t count, const CancelToken& cancel,
                  const std::function<void(std::size_t, const CancelToken& batch)>& task);

// Runs work in a new thread at the lowest priority (nice 19; the threads it starts inherit it),
// waits for it and rethrows what it threw: work that should only take the CPU time others leave.
void in_idle_thread(const std::function<void()>& work);

}  // namespace render
