// A line spoken in a forked child and sent back through a pipe; see child.hpp.
#include "render/voice/module/child.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <system_error>

namespace render::voice {

namespace {

// The reply: 0, the sample rate, the sample and mark counts, the samples, the marks; or 1 and
// a message.
template <typename T>
void append(std::string& out, const T* data, std::size_t count) {
    out.append(reinterpret_cast<const char*>(data), count * sizeof(T));
}

std::string encode(const RawSpeech& speech) {
    const std::uint64_t head[3] = {static_cast<std::uint64_t>(speech.rate), speech.pcm.size(),
                                   speech.marks.size()};
    std::string out(1, '\0');
    append(out, head, 3);
    append(out, speech.pcm.data(), speech.pcm.size());
    append(out, speech.marks.data(), speech.marks.size());
    return out;
}

RawSpeech decode(const std::string& reply) {
    if (reply.empty()) throw std::runtime_error("the engine stopped without speaking the line");
    if (reply[0] != '\0') throw std::runtime_error(reply.substr(1));
    std::uint64_t head[3];
    if (reply.size() < 1 + sizeof head) throw std::runtime_error("the engine's reply is cut short");
    std::memcpy(head, reply.data() + 1, sizeof head);
    const std::size_t pcm_at = 1 + sizeof head, marks_at = pcm_at + head[1] * sizeof(float);
    if (reply.size() != marks_at + head[2] * sizeof(double))
        throw std::runtime_error("the engine's reply is cut short");
    RawSpeech out;
    out.rate = static_cast<int>(head[0]);
    out.pcm.resize(head[1]);
    std::memcpy(out.pcm.data(), reply.data() + pcm_at, head[1] * sizeof(float));
    out.marks.resize(head[2]);
    std::memcpy(out.marks.data(), reply.data() + marks_at, head[2] * sizeof(double));
    return out;
}

bool write_all(int fd, const std::string& bytes) {
    for (std::size_t at = 0; at < bytes.size();) {
        const ssize_t n = write(fd, bytes.data() + at, bytes.size() - at);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        at += static_cast<std::size_t>(n);
    }
    return true;
}

std::string read_all(int fd) {
    std::string out;
    char buffer[1 << 16];
    for (;;) {
        const ssize_t n = read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return out;
        out.append(buffer, static_cast<std::size_t>(n));
    }
}

[[noreturn]] void run_child(int fd, const std::function<RawSpeech()>& speak) {
    std::string reply;
    try {
        reply = encode(speak());
    } catch (const std::exception& e) {
        reply = std::string(1, '\1') + e.what();
    }
    _exit(write_all(fd, reply) ? 0 : 1);  // no atexit handlers, no flushing the parent's buffers
}

}  // namespace

RawSpeech speak_in_child(std::unique_lock<std::mutex>& lock,
                         const std::function<RawSpeech()>& speak) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        throw std::system_error(errno, std::generic_category(), "cannot make a pipe");
    const pid_t child = fork();
    if (child == 0) {
        close(fds[0]);
        run_child(fds[1], speak);
    }
    const int fork_error = errno;
    // Closed before another thread's child can inherit it: that copy would hold off our EOF.
    close(fds[1]);
    lock.unlock();
    if (child < 0) {
        close(fds[0]);
        throw std::system_error(fork_error, std::generic_category(), "cannot start the engine");
    }
    const std::string reply = read_all(fds[0]);
    close(fds[0]);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    return decode(reply);
}

}  // namespace render::voice
