// Speaking each line in a child process forked for it. Both engines keep state from one line to
// the next (espeak-ng's function statics, Festival's interpreter), so a line spoken after another
// could come out different; a child starts from the state the engine had in this process, the
// same for every line, and lines are spoken side by side.
//
// Every child is forked from the one calling thread, which must be the process's only thread: a
// fork copies only the thread that calls it, and a lock another thread held at that moment
// (the allocator's under AddressSanitizer, a library's own) stays held for ever in the child.
#pragma once
#include <cstddef>
#include <functional>
#include <string>

namespace render::voice {

// What one child does: its reply, as bytes. An exception becomes a failure reply (see below).
using ChildWork = std::function<std::string()>;

// A reply that is a failure: "\1" and the message. Every other reply starts with "\0".
std::string failure_reply(const std::string& message);

// Runs prepare(i) in this process, then what it returned in a child, for each i < count in
// order, with at most `workers` children at once; hands each reply to done(i, reply) here as it
// comes. A child that dies without a whole reply gives a failure reply saying how it ended.
// Stops, killing the children still running, as soon as keep_going() (asked every 100 ms) or
// done() is false.
void run_children(std::size_t count, int workers,
                  const std::function<ChildWork(std::size_t)>& prepare,
                  const std::function<bool()>& keep_going,
                  const std::function<bool(std::size_t, const std::string&)>& done);

}  // namespace render::voice
