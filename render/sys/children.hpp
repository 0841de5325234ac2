// Work done in child processes forked for it, each replying with bytes over a pipe: the speech
// cache's speaker (render/voice/speech.cpp), which keeps the engines out of the process that
// renders, and the voice module's line per child (both engines keep state from one line to the
// next, so each line starts from the state the engine had before the first).
//
// Every child is forked from the one calling thread, which must be the process's only thread: a
// fork copies only the thread that calls it, and a lock another thread held at that moment
// (the allocator's under AddressSanitizer, a library's own) stays held for ever in the child.
#pragma once
#include <cstddef>
#include <functional>
#include <string>

namespace render {

// What one child does: its reply, as bytes. An exception becomes a failure reply (see below).
// The child ends with _exit: no atexit handlers, no flushing of the parent's buffers. It starts
// with its own offsets in the files open for reading (its own open file descriptions), so
// children running at once never move each other's reads, nor their parent's.
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

}  // namespace render
