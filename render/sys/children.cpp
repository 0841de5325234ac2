// Worker children forked from one thread, each serving work over a socket pair read with poll();
// see children.hpp.
#include "render/sys/children.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <exception>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace render {

namespace {

bool write_all(int fd, const std::string& bytes) {
    for (std::size_t at = 0; at < bytes.size();) {
        const ssize_t n = write(fd, bytes.data() + at, bytes.size() - at);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        at += static_cast<std::size_t>(n);
    }
    return true;
}

// Gives this process an open file description of its own, at the same offset, for every file
// it has open for reading. A forked child shares its parent's: two children seeking and reading
// one file at once read at each other's offsets (the speaker keeps Festival's lexicons open, and
// its lines' children read words that were not theirs, about one line in 200).
void own_file_offsets() {
    std::vector<int> fds;
    for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd"))
        fds.push_back(std::stoi(entry.path().filename().string()));
    for (const int fd : fds) {
        struct stat st {};
        const int flags = fcntl(fd, F_GETFL);
        if (flags < 0 || (flags & O_ACCMODE) != O_RDONLY || fstat(fd, &st) != 0 ||
            !S_ISREG(st.st_mode))
            continue;  // the directory listing's own, pipes, sockets, files open for writing
        const off_t at = lseek(fd, 0, SEEK_CUR);
        const int fresh = open(("/proc/self/fd/" + std::to_string(fd)).c_str(), flags);
        if (fresh < 0 || lseek(fresh, at, SEEK_SET) != at ||
            dup3(fresh, fd, (fcntl(fd, F_GETFD) & FD_CLOEXEC) ? O_CLOEXEC : 0) < 0)
            throw std::system_error(errno, std::generic_category(),
                                    "cannot reopen file descriptor " + std::to_string(fd));
        close(fresh);
    }
}

// Reads exactly `size` bytes; false at the end of the stream (or a broken one).
bool read_all(int fd, void* data, std::size_t size) {
    auto* bytes = static_cast<char*>(data);
    for (std::size_t at = 0; at < size;) {
        const ssize_t n = read(fd, bytes + at, size - at);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        at += static_cast<std::size_t>(n);
    }
    return true;
}

int reap(pid_t pid) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
}

// How a child that gave no whole reply ended.
std::string ending(int status) {
    if (WIFSIGNALED(status))
        return "the child process was killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
               strsignal(WTERMSIG(status)) + ")";
    return "the child process exited with status " + std::to_string(WEXITSTATUS(status)) +
           " before its reply was whole";
}

// A child serving work(i) for the indices the parent sends it, one at a time, over one end of a
// socket pair: 8 bytes of index in, 8 bytes of length and the reply out. It exits at the end of
// the indices (the parent shuts its writing side).
[[noreturn]] void serve(int fd, const Work& work) {
    std::string setup_error;
    try {
        own_file_offsets();
    } catch (const std::exception& e) {
        setup_error = e.what();
    }
    std::uint64_t index = 0;
    while (read_all(fd, &index, sizeof index)) {
        std::string reply;
        try {
            reply = setup_error.empty() ? work(index) : failure_reply(setup_error);
        } catch (const std::exception& e) {
            reply = failure_reply(e.what());
        }
        const std::uint64_t size = reply.size();
        if (!write_all(fd, std::string(reinterpret_cast<const char*>(&size), sizeof size) + reply))
            _exit(1);
    }
    _exit(0);  // no atexit handlers, no flushing the parent's buffers
}

struct Worker {
    pid_t pid;
    int fd;
    std::optional<std::size_t> index;  // the work it is doing, none when idle
    std::string bytes;                 // of its reply so far
};

// The workers running; those left when it goes (a stop, an exception) are killed and reaped.
class Workers {
  public:
    explicit Workers(const Work& work) : work_(work) {}
    Workers(const Workers&) = delete;
    Workers& operator=(const Workers&) = delete;
    ~Workers() {
        for (const Worker& w : running_) {
            kill(w.pid, SIGKILL);
            close(w.fd);
            reap(w.pid);
        }
    }

    std::size_t size() const { return running_.size(); }

    void start() {
        int fds[2];
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
            throw std::system_error(errno, std::generic_category(), "cannot make a socket pair");
        const pid_t parent = getpid();
        const pid_t pid = fork();
        if (pid == 0) {
            // It goes when its parent goes, however that ends (a SIGTERM to `render` while the
            // speaker speaks): nobody else would read its reply. The forking thread waits for it,
            // so the signal cannot come from that thread's exit.
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (getppid() != parent) _exit(1);
            close(fds[0]);
            for (const Worker& w : running_) close(w.fd);  // its siblings' sockets are not its own
            serve(fds[1], work_);
        }
        const int fork_error = errno;
        close(fds[1]);  // the child's end: its exit is our EOF
        if (pid < 0) {
            close(fds[0]);
            throw std::system_error(fork_error, std::generic_category(),
                                    "cannot start a child process");
        }
        running_.push_back({pid, fds[0], std::nullopt, {}});
    }

    // Hands index to an idle worker; false when none is idle.
    bool give(std::size_t index) {
        for (Worker& w : running_) {
            if (w.index) continue;
            const std::uint64_t i = index;
            w.index = index;
            // MSG_NOSIGNAL: a worker that died is found by its EOF, not by SIGPIPE here.
            if (send(w.fd, &i, sizeof i, MSG_NOSIGNAL) != sizeof i) shutdown(w.fd, SHUT_WR);
            return true;
        }
        return false;
    }

    // Tells the idle workers there is no more work, and reaps them as they exit.
    void dismiss_idle() {
        std::vector<Worker> busy;
        for (Worker& w : running_) {
            if (w.index) {
                busy.push_back(std::move(w));
                continue;
            }
            shutdown(w.fd, SHUT_WR);  // EOF to the child, which exits
            close(w.fd);
            reap(w.pid);
        }
        running_ = std::move(busy);
    }

    // Reads what is there within timeout_ms; returns the (index, reply) of the work finished.
    // A worker that ended without a whole reply is reaped, its work failed with how it ended.
    std::vector<std::pair<std::size_t, std::string>> collect(int timeout_ms) {
        std::vector<pollfd> polls;
        for (const Worker& w : running_) polls.push_back({w.fd, POLLIN, 0});
        if (poll(polls.data(), polls.size(), timeout_ms) < 0 && errno != EINTR)
            throw std::system_error(errno, std::generic_category(),
                                    "cannot wait for a child process");
        std::vector<std::pair<std::size_t, std::string>> finished;
        std::vector<Worker> still;
        for (std::size_t i = 0; i < running_.size(); ++i) {
            Worker& w = running_[i];
            const bool open = polls[i].revents == 0 || read_some(w);
            if (auto reply = whole_reply(w))
                finished.emplace_back(*std::exchange(w.index, {}), *reply);
            if (open) {
                still.push_back(std::move(w));
                continue;
            }
            close(w.fd);
            const int status = reap(w.pid);
            if (w.index) finished.emplace_back(*w.index, failure_reply(ending(status)));
        }
        running_ = std::move(still);
        return finished;
    }

  private:
    // Appends one read's worth of what poll found; false at the socket's end.
    static bool read_some(Worker& w) {
        char buffer[1 << 16];
        ssize_t n;
        while ((n = read(w.fd, buffer, sizeof buffer)) < 0 && errno == EINTR) {
        }
        if (n <= 0) return false;
        w.bytes.append(buffer, static_cast<std::size_t>(n));
        return true;
    }

    // The reply, once its length and every byte of it are in (taken out of the buffer).
    static std::optional<std::string> whole_reply(Worker& w) {
        std::uint64_t size = 0;
        if (!w.index || w.bytes.size() < sizeof size) return std::nullopt;
        std::memcpy(&size, w.bytes.data(), sizeof size);
        if (w.bytes.size() - sizeof size < size) return std::nullopt;
        std::string reply = w.bytes.substr(sizeof size, size);
        w.bytes.erase(0, sizeof size + size);
        return reply;
    }

    const Work& work_;
    std::vector<Worker> running_;
};

}  // namespace

std::string failure_reply(const std::string& message) { return std::string(1, '\1') + message; }

void run_children(std::size_t count, int workers, const Work& work,
                  const std::function<bool()>& keep_going,
                  const std::function<bool(std::size_t, const std::string&)>& done, Reuse reuse) {
    Workers pool(work);
    const std::size_t most = std::min<std::size_t>(workers > 0 ? workers : 1, count);
    for (std::size_t next = 0;;) {
        if (!keep_going()) return;
        while (next < count && pool.size() < most) pool.start();  // also replaces one that died
        while (next < count && pool.give(next)) ++next;
        if (next == count) pool.dismiss_idle();
        if (pool.size() == 0) return;
        for (const auto& [index, reply] : pool.collect(100)) {
            if (!done(index, reply)) return;
        }
        if (reuse == Reuse::fresh_per_index) pool.dismiss_idle();
    }
}

}  // namespace render
