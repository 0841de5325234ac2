// Work done in child processes forked for it, each replying with bytes: the speech cache's
// speaker (render/voice/speech.cpp), which keeps the engines out of the process that renders,
// and the voice module's workers, which speak the lines.
//
// A worker is forked once and serves one index after another. The engines' state, loaded before
// the fork, is shared copy-on-write, and each page a line writes is copied once per worker, not
// once per line: a child per line spent half of its CPU on those copies (the default film's 67
// lines in Festival took 16.4 s of CPU that way, 8.3 s in one process). A Festival line's sound
// does not depend on the lines spoken before it in the same process; an espeak-ng line's does,
// so those get a child each (Reuse below; tests/render/voice_test.cpp speaks lines alone and
// after others and compares their samples).
//
// Every child is forked from the one calling thread, which must be the process's only thread: a
// fork copies only the thread that calls it, and a lock another thread held at that moment
// (the allocator's under AddressSanitizer, a library's own) stays held for ever in the child.
#pragma once
#include <cstddef>
#include <functional>
#include <string>

namespace render {

// What a child does for index i: its reply, as bytes. An exception becomes a failure reply (see
// below). A child ends with _exit: no atexit handlers, no flushing of the parent's buffers. It
// starts with its own offsets in the files open for reading (its own open file descriptions), so
// children running at once never move each other's reads, nor their parent's.
using Work = std::function<std::string(std::size_t)>;

// A reply that is a failure: "\1" and the message. Every other reply starts with "\0".
std::string failure_reply(const std::string& message);

// Whether a child serves many indices, or one and exits (for work whose result would depend on
// what its process did before: espeak-ng keeps its synthesiser's state from one line to the
// next, so a line spoken after another sounds different).
enum class Reuse { serve_many, fresh_per_index };

// Runs work(i) for each i < count, in index order, in at most `workers` children, each taking the
// next index when it has replied (or, fresh_per_index, exiting then, another forked in its
// place); hands each reply to done(i, reply) here as it comes. A child that dies without a whole
// reply gives a failure reply for its index, saying how it ended, and another child takes the
// indices left. Stops, killing the children still running, as soon as keep_going() (asked every
// 100 ms) or done() is false.
void run_children(std::size_t count, int workers, const Work& work,
                  const std::function<bool()>& keep_going,
                  const std::function<bool(std::size_t, const std::string&)>& done,
                  Reuse reuse = Reuse::serve_many);

}  // namespace render
