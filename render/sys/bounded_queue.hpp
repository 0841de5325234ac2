// A blocking first-in first-out queue of bounded capacity between two threads: the hand-over of
// frames from drawing to encoding, so memory stays constant however long the film. A fixed ring:
// nothing is allocated after construction.
#pragma once
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <vector>

namespace render {

template <class T>
class BoundedQueue {
  public:
    explicit BoundedQueue(std::size_t capacity) : ring_(capacity) {}

    // Waits for room; false (and value dropped) once the queue is closed.
    bool push(T value) {
        std::unique_lock lock(mutex_);
        not_full_.wait(lock, [&] { return closed_ || count_ < ring_.size(); });
        if (closed_) return false;
        ring_[(head_ + count_++) % ring_.size()] = std::move(value);
        not_empty_.notify_one();
        return true;
    }

    // Waits for an item; nullopt once the queue is closed and empty.
    std::optional<T> pop() {
        std::unique_lock lock(mutex_);
        not_empty_.wait(lock, [&] { return closed_ || count_ > 0; });
        if (count_ == 0) return std::nullopt;
        T value = std::move(ring_[head_]);
        head_ = (head_ + 1) % ring_.size();
        --count_;
        not_full_.notify_one();
        return value;
    }

    // Wakes every waiter: push() fails from now on, pop() drains what is left.
    void close() {
        const std::lock_guard lock(mutex_);
        closed_ = true;
        not_full_.notify_all();
        not_empty_.notify_all();
    }

  private:
    std::mutex mutex_;
    std::condition_variable not_full_, not_empty_;
    std::vector<T> ring_;
    std::size_t head_ = 0, count_ = 0;
    bool closed_ = false;
};

}  // namespace render
